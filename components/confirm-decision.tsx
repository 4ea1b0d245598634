"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiSend } from "./api-client";
import { formatTime } from "./format-time";
import { buttonClass, inputClass, labelClass } from "./ui";

export { formatTime };

/** The gateway's answer to a decision: the typed outcome with the approval and the agent's next step. */
type DecisionOutcome = {
  outcome: string;
  message: string;
  /** What carrying out the approved change gave: the approval runs it at once. */
  result?: {
    outcome: string;
    reason?: string;
    message: string;
    external_id?: string | null;
    next: string;
  };
  approval?: {
    id: string;
    status: string;
    version: number;
    decided_by?: { name: string; role: string } | null;
    decided_at?: string | null;
  };
};

// Conflicts that mean "what you looked at is no longer what would happen".
const STALE_REASONS = new Set(["stale_version", "summary_changed", "no_pending_approval"]);

type Props = {
  actionId: string;
  version: number;
  /** The approval's status as it stands now (the screen follows it live). */
  status: string;
  decidedVia: string | null;
  /** "Alice (member)": named wherever a decision is shown. */
  decidedBy: string | null;
  decidedAt: string | null;
  expiresAt: string;
  /** Whether this person may decide (the capability's policy); others see who may. */
  canDecide: boolean;
  /** Who may decide, in words. */
  approvers: string;
  reason: string | null;
  /** The approve button says what happens: "Pay $55.00 from Store credit". */
  sentence: string | null;
  /** Developer words (confirm_action) for support and admins; plain words for members. */
  audience: "member" | "staff";
  /** Asked when a decision answered that the action moved on: the screen re-reads it and shows the change. */
  onStale: () => void;
  /** The action's status as it stands now (carried out, unknown, still approved…). */
  actionStatus?: string;
  /** What the system answered when it last refused or failed the action (a 4xx's reason), if it did. */
  lastError?: { code: string; message: string } | null;
};

/** Action statuses after which the approved change was carried out (verified or not). */
const CARRIED_OUT = new Set(["applied", "completed"]);

/**
 * Where an approved action stands when the screen is seen again later: the approval's run may
 * be in flight, refused by the system, not carried out (the system was down, the agent's key
 * revoked) or its answer lost. Each status says what was sent, as it is.
 */
function approvedStanding(actionStatus: string, lastError: { message: string } | null | undefined): string {
  switch (actionStatus) {
    case "executing":
      return "It is being sent to the system now; the result is not known yet. Reload in a moment to see it.";
    case "unknown":
      return "It was sent, but the system's answer was lost: Signpost checks with the system, and support settles it if it cannot tell. Do not approve it again.";
    case "failed":
      return `The system did not carry it out${lastError ? `: ${lastError.message}` : ""}. Nothing was changed there; the agent can try again until your approval expires.`;
    case "cancelled":
      return "The action was cancelled after your approval, so it will not be carried out; nothing was changed at the system.";
    case "approved":
      return lastError
        ? `It was sent, and the system refused it: ${lastError.message}. Nothing was changed there; the agent may prepare a new version for you to approve.`
        : "Approved, but not carried out yet: nothing was sent. The agent's confirm_action can still carry out exactly this, once, until the approval expires.";
    default:
      return "Approved, but not carried out: nothing was sent.";
  }
}

function AgentWillSee({
  status,
  reason,
  audience,
  actionStatus,
  lastError,
}: {
  status: string;
  reason?: string | null;
  audience: "member" | "staff";
  actionStatus?: string;
  lastError?: { message: string } | null;
}) {
  const notCarriedOut = status === "approved" && actionStatus !== undefined && !CARRIED_OUT.has(actionStatus);
  const text = notCarriedOut
    ? approvedStanding(actionStatus, lastError)
    : status === "approved"
      ? audience === "staff"
        ? "Your approval carried out exactly this version, once. The agent's get_context or confirm_action returns this same result, never a second charge."
        : "Your approval carried out exactly this, once. If the agent tries again it gets the same result, never a second charge."
      : audience === "staff"
        ? `What the agent will see: confirm_action is refused because you rejected it${reason ? ` (“${reason}”)` : ""}. It may prepare a new version for you.`
        : `The agent is told you said no${reason ? ` (“${reason}”)` : ""}. Nothing happens unless it prepares something new and you approve that.`;
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="agent-will-see">
      {text}
    </p>
  );
}

/** What the approval's run gave: done with the system's reference, or why not and what happens next. */
function ApprovedResult({
  result,
  onStale,
}: {
  result: NonNullable<DecisionOutcome["result"]>;
  onStale: () => void;
}) {
  const done = result.outcome === "applied";
  return (
    <div className="mt-2 text-sm" data-testid="approved-result" data-outcome={result.outcome}>
      <p className={done ? "text-emerald-900" : "font-semibold text-amber-900"}>
        {done ? "Done" : result.outcome === "unknown" ? "Sent, result not known yet" : "Not done"}:{" "}
        {result.message}
        {done && result.external_id ? ` (reference ${result.external_id})` : ""}
      </p>
      <p className="mt-1 text-slate-700">{result.next}</p>
      {result.outcome === "conflict" ? (
        <button type="button" className={`${buttonClass("secondary", "sm")} mt-2`} onClick={onStale}>
          Review the new version
        </button>
      ) : null}
    </div>
  );
}

export function ConfirmDecision(props: Props) {
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
      void client.invalidateQueries({ queryKey: ["action", props.actionId] });
    },
    onError: (error) => {
      const why =
        error instanceof ApiError && error.code === "conflict"
          ? (error.details as { reason?: string } | undefined)?.reason
          : undefined;
      if (why && STALE_REASONS.has(why)) props.onStale();
    },
  });
  const conflictReason =
    decide.error instanceof ApiError && decide.error.code === "conflict"
      ? ((decide.error.details as { reason?: string } | undefined)?.reason ?? "")
      : null;

  if (conflictReason !== null && STALE_REASONS.has(conflictReason)) {
    return (
      <div
        role="alert"
        className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        data-testid="stale-notice"
      >
        <p className="font-semibold">This changed since, review again.</p>
        <p className="mt-1">
          The agent changed the action after this summary was made. Nothing was approved.
        </p>
      </div>
    );
  }

  if (props.status === "expired" || conflictReason === "approval_expired") {
    return (
      <div
        role="status"
        className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm"
        data-testid="decision-result"
      >
        <p className="font-semibold">This request expired at {formatTime(props.expiresAt)}.</p>
        <p className="mt-1">Nothing was approved. The agent has to ask again if it is still wanted.</p>
      </div>
    );
  }

  if (props.status === "voided") {
    return (
      <div
        role="status"
        className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm"
        data-testid="decision-result"
      >
        <p className="font-semibold">The agent replaced this version; nothing was approved.</p>
      </div>
    );
  }

  const decided =
    decide.data?.approval?.status ?? (["approved", "rejected"].includes(props.status) ? props.status : null);
  if (decided) {
    const by = decide.data?.approval?.decided_by
      ? `${decide.data.approval.decided_by.name} (${decide.data.approval.decided_by.role})`
      : props.decidedBy;
    const at = decide.data?.approval?.decided_at ?? props.decidedAt;
    return (
      <div
        role="status"
        className={`rounded-lg border p-4 ${decided === "approved" ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
        data-testid="decision-result"
      >
        <p className="font-semibold" data-testid="decided-by">
          {decided === "approved" ? "Approved" : "Rejected"}
          {by ? ` by ${by}` : ""}
          {at ? ` on ${formatTime(at)}` : ""}.
        </p>
        {props.decidedVia && !decide.data ? (
          <p className="text-sm text-slate-700">
            Decided in the {props.decidedVia === "cli" ? "command line" : "console"}.
          </p>
        ) : null}
        {decide.data?.result ? (
          <ApprovedResult result={decide.data.result} onStale={props.onStale} />
        ) : (
          <AgentWillSee
            status={decided}
            reason={decide.data ? reason : props.reason}
            audience={props.audience}
            actionStatus={decide.data ? undefined : props.actionStatus}
            lastError={props.lastError}
          />
        )}
      </div>
    );
  }

  if (!props.canDecide) {
    return (
      <div
        role="status"
        className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
        data-testid="not-your-decision"
      >
        <p className="font-semibold">Waiting for {props.approvers}.</p>
        <p className="mt-1">
          Only {props.approvers} can approve or reject this. Valid until {formatTime(props.expiresAt)}.
        </p>
      </div>
    );
  }

  return (
    <form
      className="rounded-lg border border-slate-200 bg-white p-4"
      aria-label="Your decision"
      onSubmit={(e) => {
        e.preventDefault();
        decide.mutate("approve");
      }}
    >
      <p className="mb-3 text-sm text-slate-700" data-testid="approval-expiry">
        Valid until {formatTime(props.expiresAt)}. Your decision applies to exactly what is shown above.
      </p>
      {decide.error && conflictReason === null ? (
        <p role="alert" className="mb-2 text-sm text-red-700">
          {decide.error.message}
        </p>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          disabled={decide.isPending}
          className={`${buttonClass("primary")} px-4 py-3 text-base sm:py-2`}
          data-testid="approve-button"
        >
          {props.sentence ?? "Approve"}
        </button>
        <button
          type="button"
          disabled={decide.isPending}
          onClick={() => decide.mutate("reject")}
          className={`${buttonClass("danger")} px-4 py-3 text-base sm:py-2`}
        >
          Reject
        </button>
      </div>
      <label htmlFor="reason" className={`${labelClass} mt-4`}>
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
    </form>
  );
}
