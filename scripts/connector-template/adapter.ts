import { createLegacyClient, type LegacyClient } from "signpost/sdk";

export interface Account {
  id: string;
  name: string;
  status: "active" | "closed";
  notes?: Array<{ id: string; text: string; reference: string }>;
}

/**
 * The one place that knows the system's HTTP API. Reads retry; writes go through
 * `sendWithRetries` in the capability, with the action key as Idempotency-Key.
 */
export function openAdapter(options: { baseUrl: string; apiKey: string }) {
  const http: LegacyClient = createLegacyClient(options);
  const enc = encodeURIComponent;
  return {
    http,
    accounts: (page: number) =>
      http.get<{ data: Account[]; page: number; total: number; next_page: number | null }>("/v1/accounts", {
        page,
      }),
    account: (id: string) => http.get<Account>(`/v1/accounts/${enc(id)}`),
  };
}

export type Adapter = ReturnType<typeof openAdapter>;
