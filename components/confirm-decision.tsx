"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, apiSend } from "./api-client";
import { buttonClass, inputClass, labelClass } from "./ui";

/** The gateway's answer to a decision: the typed outcome with the approval and the agent's next step. */
type DecisionOutcome = {
  outcome: string;
  message: string;
  approval?: { id: string; status: string; version: number };
};

// Conflicts that mean "what you looked at is no longer what would happen".
const STALE_REASONS = new Set(["stale_version", "summary_changed", "no_pending_approval"]);

type Props = {
  actionId: string;
  version: number;
  status: string;
  stale: boolean;
  currentVersion: number;
  decidedVia: string | null;
  reason: string | null;
};

function AgentWillSee({ status, reason }: { status: string; reason?: string | null }) {
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="agent-will-see">
      {status === "approved"
        ? "What the agent will see: its confirm_action for this version now runs once and returns the result. A second confirm returns the same result, never a second charge."
        : `What the agent will see: confirm_action is refused because you rejected it${reason ? ` (“${reason}”)` : ""}. It may prepare a new version for you.`}
    </p>
  );
}

export function ConfirmDecision(props: Props) {
  const router = useRouter();
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const decide = useMutation({
    mutationFn: (decision: "approve" | "reject") =>
      apiSend<DecisionOutcome>(
        "POST",
        `/api/console/actions/${encodeURIComponent(props.actionId)}/decision`,
        {
          decision,
          version: props.version,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
      ),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ["approvals"] });
      void client.invalidateQueries({ queryKey: ["summary"] });
    },
  });
  const conflictReason =
    decide.error instanceof ApiError && decide.error.code === "conflict"
      ? ((decide.error.details as { reason?: string } | undefined)?.reason ?? "")
      : null;
  const conflict = conflictReason !== null && STALE_REASONS.has(conflictReason);
  // The gateway's conflict carries the action's version now; the page's prop is from when it rendered.
  const currentVersion =
    (decide.error instanceof ApiError
      ? (decide.error.details as { version?: number } | undefined)?.version
      : undefined) ?? props.currentVersion;

  if (props.stale || conflict) {
    return (
      <div
        role="alert"
        className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        data-testid="stale-notice"
      >
        <p className="font-semibold">This changed since, review again.</p>
        <p className="mt-1">
          The agent changed the action after this summary was made (now version {currentVersion}). Nothing was
          approved.
        </p>
        <button type="button" className={`${buttonClass("secondary")} mt-3`} onClick={() => router.refresh()}>
          Review the current version
        </button>
      </div>
    );
  }

  if (conflictReason === "already_decided") {
    return (
      <div
        role="status"
        className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm"
        data-testid="decision-result"
      >
        <p className="font-semibold">Someone already decided this.</p>
        <button type="button" className={`${buttonClass("secondary")} mt-3`} onClick={() => router.refresh()}>
          Show the decision
        </button>
      </div>
    );
  }

  if (decide.data || props.status === "approved" || props.status === "rejected") {
    const status = decide.data?.approval?.status ?? props.status;
    return (
      <div
        role="status"
        className={`rounded-lg border p-4 ${status === "approved" ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
        data-testid="decision-result"
      >
        <p className="font-semibold">{status === "approved" ? "Approved." : "Rejected."}</p>
        {!decide.data && props.decidedVia ? (
          <p className="text-sm text-slate-600">Decided via {props.decidedVia.replace("_", " ")}.</p>
        ) : null}
        <AgentWillSee status={status} reason={decide.data ? reason : props.reason} />
      </div>
    );
  }

  return (
    <form
      className="rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        decide.mutate("approve");
      }}
    >
      <label htmlFor="reason" className={labelClass}>
        Reason (optional, shown to the agent if you reject)
      </label>
      <input
        id="reason"
        name="reason"
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className={`${inputClass} mt-1`}
      />
      {decide.error && !conflict ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {decide.error.message}
        </p>
      ) : null}
      <div className="mt-4 flex gap-2">
        <button type="submit" disabled={decide.isPending} className={buttonClass("primary")}>
          Approve
        </button>
        <button
          type="button"
          disabled={decide.isPending}
          onClick={() => decide.mutate("reject")}
          className={buttonClass("danger")}
        >
          Reject
        </button>
      </div>
    </form>
  );
}
