"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { PermissionRequestView, PermissionRuleView } from "@/server/gateway/console/manage-permissions";
import { ApiError, apiGet, apiSend } from "./api-client";
import { ConfirmDialog } from "./confirm-dialog";
import {
  Badge,
  buttonClass,
  Card,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  TableHead,
  Time,
} from "./ui";

const VERBS = ["search", "navigate", "submit", "start", "advance", "confirm", "script", "*"];
type Agent = { id: string; name: string };
/** What the pattern language may name, from the server's registries (never a list of the component's own). */
export type PermissionGrammar = { schemes: string[]; capabilities: string[] };

/** The one pattern language, as server/gateway/permission-pattern.ts reads it. */
function PatternHelp({ grammar }: { grammar: PermissionGrammar }) {
  const code = "rounded bg-slate-100 px-1 font-mono text-xs";
  // Examples from what is installed, so they name this tenant's systems, not a demo's.
  const id = grammar.capabilities[0] ?? "close_account";
  const glob = `${id.split("_")[0]}_*`;
  const [scheme = "crm", other = scheme] = grammar.schemes;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="pattern-help">
      <summary className="cursor-pointer font-semibold">Pattern language</summary>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
        <li>
          <code className={code}>*</code> or <code className={code}>**</code> alone: everything.
        </li>
        <li>
          <code className={code}>capability:&lt;id&gt;</code> — one capability;{" "}
          <code className={code}>*</code> in the id is any run of characters (
          <code className={code}>capability:{glob}</code>). A bare id such as{" "}
          <code className={code}>{id}</code> is saved as <code className={code}>capability:{id}</code>. Ids:{" "}
          {grammar.capabilities.join(", ")}.
        </li>
        <li>
          <code className={code}>&lt;scheme&gt;://&lt;path&gt;</code> — pages and records:{" "}
          <code className={code}>*</code> is any run within one path segment (
          <code className={code}>{scheme}://&lt;entity&gt;/*</code>), <code className={code}>**</code> any
          depth (<code className={code}>{other}://**</code>). A query is part of the target, so{" "}
          <code className={code}>{scheme}://*</code> also covers{" "}
          <code className={code}>{scheme}://&lt;listing&gt;?status=open</code>. Schemes:{" "}
          {grammar.schemes.join(", ")}.
        </li>
        <li>
          <code className={code}>search:&lt;scheme&gt;</code> or <code className={code}>search:*</code> —
          browse search; <code className={code}>capabilities</code> — the capability catalog.
        </li>
        <li>
          No spaces, no <code className={code}>***</code>, no route placeholders like{" "}
          <code className={code}>{"{id}"}</code>, at most 300 characters. A pattern that could match nothing
          Signpost serves is refused when you save it, with the reason.
        </li>
      </ul>
    </details>
  );
}

/** A refused save names what is wrong with which field, not only that the request was invalid. */
function SaveError({ error }: { error: unknown }) {
  const details =
    error instanceof ApiError && Array.isArray(error.details)
      ? (error.details as { path?: string; message?: string }[])
      : [];
  if (details.length === 0) return <ErrorState error={error} />;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p>The rule was not saved:</p>
      <ul className="mt-1 list-disc pl-5">
        {details.map((d) => (
          <li key={`${d.path}:${d.message}`}>
            {d.path ? <strong>{d.path}: </strong> : null}
            {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
type RuleDraft = {
  subjectType: "agent" | "role" | "tenant";
  subjectId: string;
  verb: string;
  pattern: string;
  decision: "allow" | "deny" | "ask";
  note: string;
};
const EMPTY_RULE: RuleDraft = {
  subjectType: "tenant",
  subjectId: "",
  verb: "submit",
  pattern: "",
  decision: "deny",
  note: "",
};

function toBody(d: RuleDraft) {
  return {
    subjectType: d.subjectType,
    subjectId: d.subjectType === "tenant" ? null : d.subjectId,
    verb: d.verb,
    pattern: d.pattern,
    decision: d.decision,
    note: d.note || null,
  };
}

function RuleForm({
  initial,
  agents,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
  idPrefix,
}: {
  initial: RuleDraft;
  agents: Agent[];
  submitLabel: string;
  onSubmit: (d: RuleDraft) => void;
  onCancel?: () => void;
  busy: boolean;
  idPrefix: string;
}) {
  const [d, setD] = useState(initial);
  const id = (k: string) => `${idPrefix}-${k}`;
  return (
    <form
      className="grid grid-cols-2 gap-3 md:grid-cols-7 md:items-end"
      aria-label={submitLabel}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit(d);
      }}
    >
      <div>
        <label htmlFor={id("subjectType")} className={labelClass}>
          Subject
        </label>
        <select
          id={id("subjectType")}
          value={d.subjectType}
          onChange={(e) =>
            setD({ ...d, subjectType: e.target.value as RuleDraft["subjectType"], subjectId: "" })
          }
          className={`${inputClass} mt-1`}
        >
          <option value="tenant">everyone</option>
          <option value="role">role</option>
          <option value="agent">agent</option>
        </select>
      </div>
      <div>
        <label htmlFor={id("subjectId")} className={labelClass}>
          Which
        </label>
        {d.subjectType === "agent" ? (
          <select
            id={id("subjectId")}
            required
            value={d.subjectId}
            onChange={(e) => setD({ ...d, subjectId: e.target.value })}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        ) : d.subjectType === "role" ? (
          <select
            id={id("subjectId")}
            required
            value={d.subjectId}
            onChange={(e) => setD({ ...d, subjectId: e.target.value })}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            <option value="member">member</option>
            <option value="support">support</option>
            <option value="admin">admin</option>
          </select>
        ) : (
          <input
            id={id("subjectId")}
            disabled
            value="the whole tenant"
            className={`${inputClass} mt-1 text-slate-600`}
          />
        )}
      </div>
      <div>
        <label htmlFor={id("verb")} className={labelClass}>
          Verb
        </label>
        <select
          id={id("verb")}
          value={d.verb}
          onChange={(e) => setD({ ...d, verb: e.target.value })}
          className={`${inputClass} mt-1`}
        >
          {VERBS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2">
        <label htmlFor={id("pattern")} className={labelClass}>
          URI or capability pattern
        </label>
        <input
          id={id("pattern")}
          required
          maxLength={300}
          placeholder="crm://account/* or capability:close_*"
          value={d.pattern}
          onChange={(e) => setD({ ...d, pattern: e.target.value })}
          className={`${inputClass} mt-1 font-mono`}
        />
      </div>
      <div>
        <label htmlFor={id("decision")} className={labelClass}>
          Decision
        </label>
        <select
          id={id("decision")}
          value={d.decision}
          onChange={(e) => setD({ ...d, decision: e.target.value as RuleDraft["decision"] })}
          className={`${inputClass} mt-1`}
        >
          <option value="allow">allow</option>
          <option value="deny">deny</option>
          <option value="ask">ask</option>
        </select>
      </div>
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={buttonClass("primary")}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel} className={buttonClass("secondary")}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function Tester({ agents }: { agents: Agent[] }) {
  const [agentId, setAgentId] = useState("");
  const [verb, setVerb] = useState("submit");
  const [target, setTarget] = useState("");
  const test = useMutation({
    mutationFn: () =>
      apiSend<{
        decision: string;
        target: string;
        message: string;
        source: "rule" | "grant" | "default";
        rule?: {
          id: string;
          pattern: string;
          subjectType: string;
          subjectId: string | null;
          verb: string;
        } | null;
      }>("POST", "/api/console/permissions/test", { agentId, verb, target }),
  });
  return (
    <Card title="Would this be allowed?">
      <form
        className="grid grid-cols-1 gap-3 md:grid-cols-[1fr_10rem_2fr_auto] md:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          test.mutate();
        }}
      >
        <div>
          <label htmlFor="t-agent" className={labelClass}>
            Agent
          </label>
          <select
            id="t-agent"
            required
            value={agentId}
            onChange={(e) => setAgentId(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="t-verb" className={labelClass}>
            Verb
          </label>
          <select
            id="t-verb"
            value={verb}
            onChange={(e) => setVerb(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            {VERBS.filter((v) => v !== "*").map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="t-target" className={labelClass}>
            URI or capability
          </label>
          <input
            id="t-target"
            required
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            placeholder="crm://account/42 or close_account"
            className={`${inputClass} mt-1 font-mono`}
          />
        </div>
        <button type="submit" disabled={test.isPending} className={buttonClass("primary")}>
          Check
        </button>
      </form>
      {test.error ? <ErrorState error={test.error} /> : null}
      {test.data ? (
        <p
          role="status"
          className="mt-3 flex flex-wrap items-center gap-2 text-sm"
          data-testid="tester-result"
        >
          <Badge value={test.data.decision} />
          <code className="text-xs">{test.data.target}</code>
          {test.data.rule ? (
            <span>
              decided by rule{" "}
              <code className="text-xs">
                {test.data.rule.verb} {test.data.rule.pattern}
              </code>{" "}
              ({test.data.rule.subjectType}
              {test.data.rule.subjectId ? ` ${test.data.rule.subjectId}` : ""})
            </span>
          ) : (
            <span>
              {test.data.source === "grant" ? "a granted one-time request" : "the defaults (no rule matched)"}
              : {test.data.message}
            </span>
          )}
        </p>
      ) : null}
    </Card>
  );
}

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
