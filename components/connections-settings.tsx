"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "./api-client";
import { buttonClass, Card, ErrorState, Time } from "./ui";

type Connection = {
  connector: string;
  title?: string;
  email?: string | null;
  scopes: string[];
  since: string;
  lastUsedAt: string | null;
};

/**
 * The systems a person connected their own account to (system, scopes, since, last used) with
 * Disconnect; for admins, who in the organisation connected what, and "cut off" per system.
 */
export function ConnectionsSettings({ isAdmin }: { isAdmin: boolean }) {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ["connections"],
    queryFn: () => apiGet<{ mine: Connection[]; everyone?: Connection[] }>("/api/console/connections"),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ["connections"] });
  const drop = useMutation({
    mutationFn: (connector: string) =>
      apiSend("DELETE", `/api/console/connections/${encodeURIComponent(connector)}`),
    onSuccess: refresh,
  });
  const cut = useMutation({
    mutationFn: (connector: string) =>
      apiSend("POST", `/api/console/connections/${encodeURIComponent(connector)}/cut-off`),
    onSuccess: refresh,
  });
  if (list.error) return <ErrorState error={list.error} onRetry={() => list.refetch()} />;
  const mine = list.data?.mine ?? [];
  const everyone = list.data?.everyone ?? [];
  return (
    <div className="max-w-2xl space-y-6">
      <Card title="Your connected accounts">
        {mine.length === 0 ? (
          <p className="text-sm text-slate-600">
            None yet. When an agent needs your own account at a system, it gives you a link to connect it
            here.
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 text-sm" data-testid="my-connections">
            {mine.map((c) => (
              <li key={c.connector} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <strong>{c.title ?? c.connector}</strong> · {c.scopes.join(" ") || "no scopes"} · since{" "}
                  <Time iso={c.since} /> · last used <Time iso={c.lastUsedAt} />
                </span>
                <button
                  type="button"
                  className={buttonClass("secondary", "sm")}
                  disabled={drop.isPending}
                  onClick={() => drop.mutate(c.connector)}
                >
                  Disconnect
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {isAdmin ? (
        <Card title="Connected accounts in your organisation">
          {everyone.length === 0 ? (
            <p className="text-sm text-slate-600">Nobody has connected an account.</p>
          ) : (
            <ul className="divide-y divide-slate-200 text-sm" data-testid="everyone-connections">
              {everyone.map((c) => (
                <li
                  key={`${c.connector}:${c.email}`}
                  className="flex flex-wrap items-center justify-between gap-2 py-2"
                >
                  <span>
                    {c.email ?? "someone"} → <strong>{c.connector}</strong> · since <Time iso={c.since} /> ·
                    last used <Time iso={c.lastUsedAt} />
                  </span>
                  <button
                    type="button"
                    className={buttonClass("danger", "sm")}
                    disabled={cut.isPending}
                    onClick={() => {
                      if (
                        window.confirm(
                          `Cut ${c.connector} off for everyone? Every connection is dropped and the system switched off.`,
                        )
                      )
                        cut.mutate(c.connector);
                    }}
                  >
                    Cut off for everyone
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Card>
      ) : null}
    </div>
  );
}
