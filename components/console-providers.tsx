"use client";

import { QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";

/** Query keys that any audit event may make stale (approvals, actions, counts, requests). */
const LIVE_KEYS = [["summary"], ["approvals"], ["actions"], ["action"], ["permission-requests"], ["agents"]];

/**
 * Opens one Server-Sent Events stream per tab and invalidates the live queries when something
 * happens; react-query refetches only what is on screen. The stream resumes by itself
 * (EventSource sends Last-Event-ID), so nothing is missed across reconnects; the gap before the
 * first connection is covered by a refetch when it opens.
 */
function LiveInvalidation() {
  const client = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const source = new EventSource("/api/console/stream");
    const onEvent = () => {
      // Coalesce bursts (one confirmed action writes several rows) into one refetch.
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        for (const key of LIVE_KEYS) void client.invalidateQueries({ queryKey: key });
      }, 150);
    };
    source.addEventListener("audit", onEvent);
    // The stream starts at the newest row when it connects, so whatever changed between the
    // page's render and this moment would wait for the next poll: refetch once on every
    // (re)connect. After that, events carry every change.
    source.addEventListener("open", onEvent);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
  return null;
}

export function ConsoleProviders({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <LiveInvalidation />
      {children}
    </QueryClientProvider>
  );
}
