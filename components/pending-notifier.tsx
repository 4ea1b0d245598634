"use client";

import { useEffect, useRef } from "react";
import { decisionSentence } from "@/server/engine/decision-sentence";
import type { ApprovalView } from "@/server/gateway/console/list-approvals";
import type { PermissionRequestView } from "@/server/gateway/console/manage-permissions";
import { apiGet } from "./api-client";
import type { Summary } from "./console-nav";

const PREFIX = /^\(\d+\) /;

/**
 * Keeps "(n) " in front of whatever title the page has: Next sets titles on navigation (and
 * may set one again after it streamed), so changes to <head> are watched. Re-applying is
 * throttled and skipped while nothing differs, so it can never fight another writer in a loop.
 */
function useTitleCount(count: number) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const apply = () => {
      timer = undefined;
      const base = document.title.replace(PREFIX, "");
      const want = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== want) document.title = want;
    };
    apply();
    const observer = new MutationObserver(() => {
      timer ??= setTimeout(apply, 100);
    });
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [count]);
}

function show(title: string, body: string, url: string, tag: string) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const n = new Notification(title, { body, tag });
  n.onclick = () => {
    window.focus();
    window.location.assign(url);
  };
}

/**
 * While the console is open: the tab title counts what waits for this person, and a browser
 * notification says so when something new arrives (if they allowed it in the browser and did not
 * turn it off on the Notifications page). The count comes from the summary the live stream
 * keeps fresh; the first reading only sets the baseline, so opening the console is not news.
 */
export function PendingNotifier({ summary, enabled }: { summary: Summary | undefined; enabled: boolean }) {
  const approvals = summary?.pendingApprovals ?? 0;
  const requests = summary?.pendingPermissionRequests ?? 0;
  useTitleCount(approvals + requests);
  const seen = useRef<{ approvals: number; requests: number } | null>(null);
  useEffect(() => {
    if (!summary) return;
    const before = seen.current;
    seen.current = { approvals, requests };
    if (!before || !enabled) return;
    if (approvals > before.approvals)
      void apiGet<{ approvals: ApprovalView[] }>("/api/console/approvals").then(
        ({ approvals: list }) => {
          const newest = list.find((a) => a.canDecide);
          if (!newest) return;
          show(
            "An approval is waiting for you",
            decisionSentence(newest.summary) ?? newest.title,
            `/confirm/${encodeURIComponent(newest.actionId)}`,
            `approval:${newest.id}`,
          );
        },
        () => undefined,
      );
    if (requests > before.requests)
      void apiGet<{ requests: PermissionRequestView[] }>("/api/console/permissions/requests").then(
        ({ requests: list }) => {
          const newest = list[0];
          if (!newest) return;
          show(
            "An agent asks for permission",
            `${newest.agentName ?? "An agent"} asks to ${newest.verb} ${newest.target}`,
            "/permissions",
            `permission:${newest.id}`,
          );
        },
        () => undefined,
      );
  }, [summary, approvals, requests, enabled]);
  return null;
}
