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
  approval?: Decided;
};

// Conflicts that mean "what you looked at is no longer what would happen".
const STALE_REASONS = new Set(["stale_version", "summary_changed", "no_pending_approval"]);

type Decided = {
  id: string;
  status: string;
  version: number;
  decided_by?: { name: string; role: string } | null;
  decided_at?: string | null;
};

type Props = {
  actionId: string;
  version: number;
  status: string;
  stale: boolean;
  currentVersion: number;
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
};

/** "1 Dec 2026, 10:42 UTC": one unambiguous format on the server render and in the browser. */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${iso.slice(11, 16)} UTC`;
}

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
    const by = decide.data?.approval?.decided_by
      ? `${decide.data.approval.decided_by.name} (${decide.data.approval.decided_by.role})`
      : props.decidedBy;
    const at = decide.data?.approval?.decided_at ?? props.decidedAt;
    return (
      <div
        role="status"
        className={`rounded-lg border p-4 ${status === "approved" ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
        data-testid="decision-result"
      >
        <p className="font-semibold" data-testid="decided-by">
          {status === "approved" ? "Approved" : "Rejected"}
          {by ? ` by ${by}` : ""}
          {at ? ` on ${formatTime(at)}` : ""}.
        </p>
        {props.decidedVia && !decide.data ? (
          <p className="text-sm text-slate-600">
            Decided in the {props.decidedVia === "cli" ? "command line" : "console"}.
          </p>
        ) : null}
        <AgentWillSee status={status} reason={decide.data ? reason : props.reason} />
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
      onSubmit={(e) => {
        e.preventDefault();
        decide.mutate("approve");
      }}
    >
      <p className="mb-3 text-sm text-slate-600" data-testid="approval-expiry">
        Valid until {formatTime(props.expiresAt)}.
      </p>
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
