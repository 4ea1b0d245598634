"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { PermissionRequestView, PermissionRuleView } from "@/server/gateway/console/manage-permissions";
import { apiGet, apiSend } from "../api-client";
import { ConfirmDialog } from "../confirm-dialog";
import { Badge, buttonClass, EmptyState, ErrorState, LoadingState, PageHeader, TableHead, Time } from "../ui";
import { PatternHelp } from "./pattern-help";
import { Tester } from "./permission-tester";
import { type Agent, EMPTY_RULE, type PermissionGrammar, type RuleDraft, toBody } from "./rule-draft";
import { RuleForm } from "./rule-form";
import { SaveError } from "./save-error";

/**
 * The Permissions page: the tenant's rules in the order they are read (edit, move, delete), the
 * agents' permission requests to answer, the recent decisions, a new rule's form with the pattern
 * language beside it, and the tester. Its parts: rule-form.tsx, pattern-help.tsx,
 * permission-tester.tsx, save-error.tsx, and rule-draft.ts (a rule as the form holds it).
 */
export function PermissionsView({ grammar }: { grammar: PermissionGrammar }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ rule: PermissionRuleView; index: number } | null>(null);
  const rules = useQuery({
    queryKey: ["permission-rules"],
    queryFn: () =>
      apiGet<{ rules: PermissionRuleView[] }>("/api/console/permissions/rules").then((r) => r.rules),
  });
  const requests = useQuery({
    queryKey: ["permission-requests"],
    queryFn: () =>
      apiGet<{ requests: PermissionRequestView[] }>("/api/console/permissions/requests").then(
        (r) => r.requests,
      ),
  });
  const decidedRequests = useQuery({
    queryKey: ["permission-requests", "decided"],
    queryFn: () =>
      apiGet<{ requests: PermissionRequestView[] }>("/api/console/permissions/requests?status=all").then(
        (r) => r.requests.filter((q) => q.status !== "pending").slice(0, 10),
      ),
  });
  const agents = useQuery({
    queryKey: ["agent-names"],
    queryFn: () => apiGet<{ agents: Agent[] }>("/api/console/agent-names").then((r) => r.agents),
  });
  const agentList = agents.data ?? [];
  const agentName = (id: string | null) => agentList.find((a) => a.id === id)?.name ?? id;
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ["permission-rules"] });
    void client.invalidateQueries({ queryKey: ["permission-requests"] });
  };
  const save = useMutation({
    mutationFn: ({ id, draft }: { id?: string; draft: RuleDraft }) =>
      id
        ? apiSend("PUT", `/api/console/permissions/rules/${id}`, toBody(draft))
        : apiSend("POST", "/api/console/permissions/rules", toBody(draft)),
    onSuccess: () => setEditing(null),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiSend("DELETE", `/api/console/permissions/rules/${id}`),
    onSettled: () => {
      setDeleting(null);
      refresh();
    },
  });
  const subjectText = (r: PermissionRuleView) =>
    r.subjectType === "tenant"
      ? "everyone"
      : r.subjectType === "agent"
        ? `agent ${agentName(r.subjectId)}`
        : `role ${r.subjectId}`;
  const reorder = useMutation({
    mutationFn: (ids: string[]) => apiSend("POST", "/api/console/permissions/reorder", { ids }),
    onSettled: refresh,
  });
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: "grant_once" | "grant_rule" | "deny" }) =>
      apiSend("POST", `/api/console/permissions/requests/${id}`, { decision }),
    onSettled: refresh,
  });
  const move = (index: number, delta: number) => {
    const ids = (rules.data ?? []).map((r) => r.id);
    const [id] = ids.splice(index, 1);
    if (!id) return;
    ids.splice(index + delta, 0, id);
    reorder.mutate(ids);
  };
  const mutationError = remove.error ?? reorder.error ?? decide.error;

  return (
    <div className="space-y-8">
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete rule ${deleting ? deleting.index + 1 : ""}?`}
        confirmLabel="Delete rule"
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.rule.id)}
      >
        {deleting ? (
          <p data-testid="delete-consequence">
            “{deleting.rule.decision} {deleting.rule.verb} <code>{deleting.rule.pattern}</code> for{" "}
            {subjectText(deleting.rule)}” stops applying at once: what it matched is decided by the next rule
            that matches, or by the defaults (reads allowed, capabilities per their policy). This cannot be
            undone.
          </p>
        ) : null}
      </ConfirmDialog>
      <PageHeader
        title="Permissions"
        description="Rules are checked top to bottom; the first that matches decides. Without a match, reads are allowed and capabilities follow their own policy. Agents can request what they are denied; no agent can grant itself anything."
      />
      {save.error ? <SaveError error={save.error} /> : null}
      {mutationError ? <ErrorState error={mutationError} /> : null}
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading" className="mb-2 text-sm font-semibold text-slate-700">
          Pending requests from agents
        </h2>
        {requests.isPending ? (
          <LoadingState />
        ) : requests.error ? (
          <ErrorState error={requests.error} onRetry={() => requests.refetch()} />
        ) : requests.data.length === 0 ? (
          <EmptyState title="No pending requests" />
        ) : (
          <ul className="space-y-2" aria-label="Pending permission requests">
            {requests.data.map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
                data-testid="permission-request"
              >
                <div>
                  <p>
                    <strong>{r.agentName ?? r.agentId}</strong> asks to <strong>{r.verb}</strong>{" "}
                    <code className="text-xs">{r.target}</code>
                  </p>
                  <p className="text-xs text-slate-600">
                    {r.reason ? `“${r.reason}” · ` : ""}
                    <Time iso={r.createdAt} />
                  </p>
                </div>
                <div className="flex gap-2">
                  <button
                    type="button"
                    className={buttonClass("primary", "sm")}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: r.id, decision: "grant_once" })}
                  >
                    Grant once
                  </button>
                  <button
                    type="button"
                    className={buttonClass("secondary", "sm")}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: r.id, decision: "grant_rule" })}
                  >
                    Grant as rule
                  </button>
                  <button
                    type="button"
                    className={buttonClass("danger", "sm")}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: r.id, decision: "deny" })}
                  >
                    Deny
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      {decidedRequests.data && decidedRequests.data.length > 0 ? (
        <section aria-labelledby="decided-requests-heading">
          <h2 id="decided-requests-heading" className="mb-2 text-sm font-semibold text-slate-700">
            Recently answered requests
          </h2>
          <ul
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm"
            data-testid="decided-requests"
          >
            {decidedRequests.data.map((r) => (
              <li key={r.id} className="px-3 py-2 [overflow-wrap:anywhere]">
                <strong>{r.agentName ?? r.agentId}</strong> · {r.verb}{" "}
                <code className="text-xs">{r.target}</code> —{" "}
                <span data-testid="request-decided-by">
                  {r.status === "used" ? "granted once (used)" : r.status}
                  {r.grantMode === "rule" ? " as a rule" : ""}
                  {r.decidedBy ? ` by ${r.decidedBy}` : ""}
                </span>{" "}
                <span className="text-xs text-slate-600">
                  <Time iso={r.decidedAt} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading" className="mb-2 text-sm font-semibold text-slate-700">
          Rules
        </h2>
        {rules.isPending ? (
          <LoadingState />
        ) : rules.error ? (
          <ErrorState error={rules.error} onRetry={() => rules.refetch()} />
        ) : rules.data.length === 0 ? (
          <EmptyState title="No rules yet">
            The defaults apply: reads allowed, capabilities per their policy.
          </EmptyState>
        ) : (
          <table
            className="stack-on-phone w-full rounded-lg border border-slate-200 bg-white text-sm"
            data-testid="rules-table"
          >
            <TableHead columns={["#", "Subject", "Verb", "Pattern", "Decision", ""]} />
            <tbody>
              {rules.data.map((r, i) =>
                editing === r.id ? (
                  <tr key={r.id} className="border-t border-slate-100 bg-slate-50">
                    <td colSpan={6} className="px-3 py-3">
                      <RuleForm
                        idPrefix={`edit-${r.id}`}
                        agents={agentList}
                        busy={save.isPending}
                        submitLabel="Save rule"
                        initial={{
                          subjectType: r.subjectType as RuleDraft["subjectType"],
                          subjectId: r.subjectId ?? "",
                          verb: r.verb,
                          pattern: r.pattern,
                          decision: r.decision as RuleDraft["decision"],
                          note: r.note ?? "",
                        }}
                        onSubmit={(draft) => save.mutate({ id: r.id, draft })}
                        onCancel={() => setEditing(null)}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={r.id} className="border-t border-slate-200 align-top" data-testid="rule-row">
                    <td className="px-3 py-2 tabular-nums text-slate-600" data-label="#">
                      {i + 1}
                    </td>
                    <td className="px-3 py-2" data-label="Subject">
                      {subjectText(r)}
                    </td>
                    <td className="px-3 py-2" data-label="Verb">
                      {r.verb}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]" data-label="Pattern">
                      {r.pattern}
                      {r.problem ? (
                        <p className="mt-1 font-sans text-amber-700" data-testid="rule-problem">
                          {r.problem}
                        </p>
                      ) : null}
                    </td>
                    <td className="px-3 py-2" data-label="Decision">
                      <Badge value={r.decision} />
                      <span className="mt-1 block text-xs text-slate-600" data-testid="rule-attribution">
                        {r.updatedBy
                          ? `changed by ${r.updatedBy}`
                          : r.createdBy
                            ? `added by ${r.createdBy}`
                            : "added by the seed"}{" "}
                        <Time iso={r.updatedAt} />
                      </span>
                    </td>
                    <td className="px-3 py-2">
                      <div className="flex flex-wrap gap-1 md:justify-end">
                        <button
                          type="button"
                          aria-label={`Move rule ${i + 1} up`}
                          className={buttonClass("secondary", "sm")}
                          disabled={i === 0 || reorder.isPending}
                          onClick={() => move(i, -1)}
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          aria-label={`Move rule ${i + 1} down`}
                          className={buttonClass("secondary", "sm")}
                          disabled={i === rules.data.length - 1 || reorder.isPending}
                          onClick={() => move(i, 1)}
                        >
                          ↓
                        </button>
                        <button
                          type="button"
                          className={buttonClass("secondary", "sm")}
                          onClick={() => setEditing(r.id)}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className={buttonClass("danger", "sm")}
                          disabled={remove.isPending}
                          onClick={() => setDeleting({ rule: r, index: i })}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        )}
        <div className="mt-4 rounded-lg border border-slate-200 bg-white p-4">
          <h3 className="mb-3 text-sm font-semibold">Add a rule</h3>
          <RuleForm
            key={rules.data?.length ?? 0}
            idPrefix="new"
            agents={agentList}
            busy={save.isPending}
            submitLabel="Add rule"
            initial={EMPTY_RULE}
            onSubmit={(draft) => save.mutate({ draft })}
          />
          <div className="mt-4">
            <PatternHelp grammar={grammar} />
          </div>
        </div>
      </section>
      <Tester agents={agentList} />
    </div>
  );
}
