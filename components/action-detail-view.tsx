"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatMoney } from "@/server/connectors/sdk/render-decision-summary";
import type { ActionDetail } from "@/server/gateway/console/list-actions";
import { apiGet, apiSend } from "./api-client";
import { ConfirmationSummary } from "./confirmation-summary";
import {
  Badge,
  buttonClass,
  Card,
  ErrorState,
  inputClass,
  JsonBlock,
  labelClass,
  PageHeader,
  Time,
} from "./ui";

const MIN_REASON = 10;

type Verification = { found?: boolean; checked_at?: string } | null;

function RecoveryPanel({ action }: { action: ActionDetail }) {
  const client = useQueryClient();
  const [note, setNote] = useState("");
  const [withoutVerify, setWithoutVerify] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const verification = (action.state as { verification?: Verification } | null)?.verification ?? null;
  const checkedAt = verification?.checked_at ? Date.parse(verification.checked_at) : Number.NaN;
  // The same rule as the gateway's: a verify after the effect last changed that found nothing.
  const verifiedNotFound =
    verification?.found === false &&
    Number.isFinite(checkedAt) &&
    action.effect !== null &&
    checkedAt >= Date.parse(action.effect.updatedAt);
  const reasonOk = note.trim().length >= MIN_REASON;
  const run = useMutation({
    mutationFn: async (
      op: { kind: "verify" | "retry" } | { kind: "resolve"; resolution: "applied" | "not_applied" },
    ) => {
      const base = `/api/console/actions/${encodeURIComponent(action.id)}`;
      if (op.kind === "resolve")
        return apiSend<unknown>("POST", `${base}/resolve`, {
          resolution: op.resolution,
          ...(note.trim() ? { note: note.trim() } : {}),
        });
      return apiSend<unknown>("POST", `${base}/${op.kind}`);
    },
    onSuccess: (result) => setMessage((result as { message?: string }).message ?? "Done."),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ["action", action.id] });
      void client.invalidateQueries({ queryKey: ["actions"] });
    },
  });
  return (
    <Card title="Recovery" className="border-amber-300">
      <p className="text-sm text-slate-700">
        Nobody knows yet whether this {action.effect?.kind ?? "effect"} happened. Verify asks the system of
        record (by the action key{" "}
        <code className="text-xs [overflow-wrap:anywhere]">{action.effect?.actionKey}</code>); retry sends it
        again with the same key, so it cannot happen twice. Every step is audited.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass("primary")}
          disabled={run.isPending}
          onClick={() => run.mutate({ kind: "verify" })}
        >
          Verify
        </button>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={run.isPending}
          onClick={() => run.mutate({ kind: "retry" })}
        >
          Retry with the original key
        </button>
      </div>
      {verifiedNotFound ? (
        <p className="mt-3 text-sm text-slate-800" data-testid="verified-not-found">
          Verified <Time iso={verification?.checked_at} />: the system of record shows nothing. You can mark
          it as not happened.
        </p>
      ) : null}
      {verifiedNotFound || withoutVerify ? (
        <form
          className="mt-4 grid gap-2"
          aria-label="Mark resolved"
          onSubmit={(e) => {
            e.preventDefault();
            run.mutate({ kind: "resolve", resolution: "applied" });
          }}
        >
          <div>
            <label htmlFor="resolve-note" className={labelClass}>
              {verifiedNotFound
                ? "Note (what you checked; required to mark it as happened)"
                : `Reason (what you checked instead of a verify; at least ${MIN_REASON} characters, audited)`}
            </label>
            <input
              id="resolve-note"
              minLength={verifiedNotFound ? 0 : MIN_REASON}
              maxLength={1000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className={`${inputClass} mt-1`}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonClass("secondary")} disabled={run.isPending || !reasonOk}>
              Mark resolved: happened
            </button>
            <button
              type="button"
              className={buttonClass("danger")}
              disabled={run.isPending || !(verifiedNotFound || reasonOk)}
              onClick={() => run.mutate({ kind: "resolve", resolution: "not_applied" })}
            >
              Mark resolved: did not happen
            </button>
          </div>
        </form>
      ) : (
        <p className="mt-4 text-sm text-slate-700">
          Mark it resolved after a verify.{" "}
          <button
            type="button"
            className="font-medium text-sky-800 underline"
            onClick={() => setWithoutVerify(true)}
          >
            Resolve without verifying…
          </button>
        </p>
      )}
      {run.error ? <ErrorState error={run.error} /> : null}
      {message ? (
        <p role="status" className="mt-2 break-all text-xs text-slate-700">
          {message}
        </p>
      ) : null}
    </Card>
  );
}

export function ActionDetailView({
  initial,
  canRecover,
  canDecide,
}: {
  initial: ActionDetail;
  canRecover: boolean;
  canDecide: boolean;
}) {
  const q = useQuery({
    queryKey: ["action", initial.id],
    queryFn: () =>
      apiGet<{ action: ActionDetail }>(`/api/console/actions/${encodeURIComponent(initial.id)}`).then(
        (r) => r.action,
      ),
    initialData: initial,
  });
  const a = q.data;
  const pending = a.approvals.find((p) => p.status === "pending" && p.version === a.version);
  // Node ids, versions and raw data are for support and admins; members see them folded away.
  const developer = canRecover;
  const unknown = a.status === "unknown" || a.effect?.status === "unknown" || a.effect?.status === "pending";
  return (
    <div className="space-y-6">
      <PageHeader
        title={a.title}
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Badge value={a.status} />
            {a.amount !== null ? <strong>{formatMoney(a.amount, a.currency ?? "USD")}</strong> : null}
            <span>
              for {a.userName ?? "—"}
              {a.agentName ? `, asked by ${a.agentName}` : ""} · started <Time iso={a.createdAt} />
            </span>
            <span className="font-mono text-xs">{a.id}</span>
            {developer ? (
              <span className="text-xs">
                at node <strong>{a.node}</strong>, version {a.version}
                {a.entityId ? ` · ${a.entityType ?? "entity"} ${a.entityId}` : ""}
              </span>
            ) : null}
          </span>
        }
        actions={
          pending && canDecide ? (
            <Link href={`/confirm/${a.id}`} className={buttonClass("primary")}>
              Review approval
            </Link>
          ) : null
        }
      />
      {q.error ? <ErrorState error={q.error} onRetry={() => q.refetch()} /> : null}
      {unknown && canRecover ? <RecoveryPanel action={a} /> : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Timeline">
          {a.events.length === 0 ? (
            <p className="text-sm text-slate-600">No events recorded.</p>
          ) : (
            <ol className="space-y-3" aria-label="Action timeline">
              {a.events.map((e) => (
                <li key={e.id} className="border-l-2 border-slate-200 pl-3">
                  <p className="text-sm">
                    <span className="font-medium">{e.kind.replaceAll("_", " ")}</span>
                    {e.actorName ? <span data-testid="event-actor"> by {e.actorName}</span> : null}{" "}
                    {developer ? (
                      <span className="text-slate-600">
                        at {e.node} · v{e.version}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-xs text-slate-600">
                    <Time iso={e.createdAt} />
                  </p>
                  {e.data && typeof e.data === "object" && Object.keys(e.data as object).length > 0 ? (
                    <details className="mt-1">
                      <summary className="cursor-pointer text-xs text-sky-800">
                        applied, validation and details
                      </summary>
                      <JsonBlock value={e.data} />
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </Card>
        <div className="space-y-6">
          <Card title="Approvals">
            {a.approvals.length === 0 ? (
              <p className="text-sm text-slate-600">No approval requested.</p>
            ) : (
              <ul className="space-y-4">
                {a.approvals.map((p) => (
                  <li key={p.id}>
                    <p className="mb-2 flex items-center gap-2 text-xs text-slate-600">
                      <Badge value={p.status} /> version {p.version}
                      {p.decidedBy ? (
                        <span data-testid="decided-by">{` · ${p.status} by ${p.decidedBy}`}</span>
                      ) : null}
                      {p.status === "pending" ? (
                        <>
                          {" · valid until "}
                          <Time iso={p.expiresAt} />
                        </>
                      ) : null}
                      {p.reason ? ` · “${p.reason}”` : ""}
                      {p.decidedAt ? (
                        <>
                          {" · "}
                          <Time iso={p.decidedAt} />
                        </>
                      ) : null}
                    </p>
                    <ConfirmationSummary
                      capability={a.capability}
                      title={a.title}
                      actionId={a.id}
                      version={p.version}
                      summary={p.summary}
                      status={p.status}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Effect ledger">
            {!a.effect ? (
              <p className="text-sm text-slate-600">No side effect recorded yet.</p>
            ) : (
              <div className="space-y-2 text-sm" data-testid="effect-ledger">
                <p className="flex flex-wrap items-center gap-2">
                  <Badge value={a.effect.status} /> {a.effect.kind} · {a.effect.attempts} attempt(s)
                  {a.effect.externalId ? ` · external id ${a.effect.externalId}` : ""}
                </p>
                <p className="text-xs text-slate-600">
                  action key <code>{a.effect.actionKey}</code> · updated <Time iso={a.effect.updatedAt} />
                </p>
                {a.effect.error ? <p className="text-xs text-red-700">{a.effect.error}</p> : null}
                <details>
                  <summary className="cursor-pointer text-xs text-sky-800">request and response</summary>
                  <JsonBlock value={{ request: a.effect.request, response: a.effect.response }} />
                </details>
              </div>
            )}
          </Card>
          <details
            className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
            data-testid="developer-detail"
          >
            <summary className="cursor-pointer font-semibold">
              Details for developers: the action&apos;s raw state
            </summary>
            <div className="mt-3">
              <JsonBlock value={a.state} label="Action state" />
            </div>
          </details>
        </div>
      </div>
    </div>
  );
}
