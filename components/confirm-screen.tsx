"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { decisionSentence } from "@/server/engine/decision-sentence";
import type { ConfirmView } from "@/server/gateway/console/confirm-view";
import { apiGet } from "./api-client";
import { ConfirmDecision } from "./confirm-decision";
import { ConfirmationSummary } from "./confirmation-summary";
import { summaryDiff } from "./summary-diff";
import { buttonClass, PageHeader } from "./ui";

type Shown = NonNullable<ConfirmView["approval"]>;

/**
 * The confirm screen follows the action live (the console's event stream refreshes it): if the
 * agent changes the action while it is open, the approve button goes away and the screen shows
 * what changed since the version on screen; the person looks at the new version before deciding
 * again. A decision made elsewhere (another tab, someone else) shows at once.
 */
export function ConfirmScreen({ initial, audience }: { initial: ConfirmView; audience: "member" | "staff" }) {
  const client = useQueryClient();
  const key = ["action", initial.actionId, "confirmation"];
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      apiGet<{ confirmation: ConfirmView }>(
        `/api/console/actions/${encodeURIComponent(initial.actionId)}/confirmation`,
      ).then((r) => r.confirmation),
    initialData: initial,
    // The stream invalidates it on every change; the interval only covers a dropped stream.
    refetchInterval: 15_000,
  });
  const latest = q.data;
  const [shown, setShown] = useState<Shown | null>(initial.approval);
  const [changedKeys, setChangedKeys] = useState<string[]>([]);

  const header = (
    <PageHeader
      title="Confirm what the agent prepared"
      description="Nothing happens until you approve. Your decision applies to exactly the version shown."
    />
  );
  if (!shown) {
    return (
      <div className="max-w-2xl">
        {header}
        <div role="status" className="rounded-lg border border-slate-200 bg-white p-5 text-sm">
          This action has not asked for approval.{" "}
          <Link className="text-sky-800 underline" href={`/actions/${latest.actionId}`}>
            Open the action
          </Link>
        </div>
      </div>
    );
  }

  const newer = latest.approval && latest.approval.version !== shown.version ? latest.approval : null;
  // The agent moved the action on and it no longer waits for approval at a newer version.
  const movedOn = !newer && latest.actionVersion !== shown.version && latest.approval?.status !== "approved";
  const current = latest.approval && latest.approval.version === shown.version ? latest.approval : shown;
  const request = {
    agentName: latest.agentName,
    forName: audience === "staff" ? latest.forName : null,
    requestedAt: current.requestedAt,
    expiresAt: current.expiresAt,
  };

  if (newer || movedOn) {
    const changes = newer ? summaryDiff(shown.summary, newer.summary) : [];
    return (
      <div className="max-w-2xl space-y-4">
        {header}
        <div
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
          data-testid="change-notice"
        >
          <p className="font-semibold">
            The agent changed this while you were looking. Nothing was approved.
          </p>
          {newer ? (
            <>
              <p className="mt-1">What changed since the version on your screen:</p>
              <ul className="mt-2 space-y-1" data-testid="summary-changes">
                {changes.map((c) => (
                  <li key={c.key} data-key={c.key} className="[overflow-wrap:anywhere]">
                    <span className="font-medium">{c.label}:</span>{" "}
                    <del className="text-amber-900">{c.before}</del> →{" "}
                    <ins className="font-semibold no-underline">{c.after}</ins>
                  </li>
                ))}
                {changes.length === 0 ? <li>Details only (the amounts and items are the same).</li> : null}
              </ul>
              <button
                type="button"
                className={`${buttonClass("primary")} mt-3`}
                onClick={() => {
                  setChangedKeys(changes.map((c) => c.key));
                  setShown(newer);
                }}
              >
                Review the new version
              </button>
            </>
          ) : (
            <p className="mt-1">
              It no longer waits for your approval at this version.{" "}
              <Link className="underline" href={`/actions/${latest.actionId}`}>
                Open the action
              </Link>
            </p>
          )}
        </div>
        <div className="opacity-70">
          <p className="mb-1 text-xs font-medium text-slate-700">The version you were looking at:</p>
          <ConfirmationSummary
            capability={latest.capability}
            title={latest.title}
            actionId={latest.actionId}
            version={shown.version}
            summary={shown.summary}
            status="voided"
          />
        </div>
      </div>
    );
  }

  return (
    <div className="max-w-2xl space-y-4">
      {header}
      {changedKeys.length > 0 && current.status === "pending" ? (
        <p
          role="status"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950"
          data-testid="reviewing-new-version"
        >
          You are looking at the agent&apos;s new version (version {shown.version}); the changes are marked.
        </p>
      ) : null}
      <ConfirmationSummary
        capability={latest.capability}
        title={latest.title}
        actionId={latest.actionId}
        version={current.version}
        summary={current.summary}
        status={current.status}
        request={request}
        changed={changedKeys}
      />
      <ConfirmDecision
        key={current.version}
        actionId={latest.actionId}
        version={current.version}
        status={current.status}
        decidedVia={current.decidedVia}
        decidedBy={current.decidedBy}
        decidedAt={current.decidedAt}
        expiresAt={current.expiresAt}
        canDecide={latest.canDecide}
        approvers={latest.approvers}
        reason={current.reason}
        sentence={decisionSentence(current.summary)}
        audience={audience}
        onStale={() => void client.invalidateQueries({ queryKey: key })}
        actionStatus={latest.actionStatus}
        lastError={latest.lastError}
      />
    </div>
  );
}
