import { type AdapterWrites, createHttpClient, type HttpClient } from "signpost/sdk";

export interface Account {
  id: string;
  name: string;
  status: "active" | "closed";
  notes?: Array<{ id: string; text: string; reference: string }>;
}

/**
 * The one place that knows the system's HTTP API. Reads retry; writes go through
 * `sendWithRetries` on `http` in the capability, with the action key as Idempotency-Key.
 * `http` is what the adapter states its writes go through (AdapterWrites): Signpost watches it
 * while an effect runs, so an error after a write went out is verified, never re-sent.
 */
export function openAdapter(options: { baseUrl: string; apiKey: string }) {
  const http: HttpClient = createHttpClient(options);
  const enc = encodeURIComponent;
  const adapter = {
    http,
    accounts: (page: number) =>
      http.get<{ data: Account[]; page: number; total: number; next_page: number | null }>("/v1/accounts", {
        page,
      }),
    account: (id: string) => http.get<Account>(`/v1/accounts/${enc(id)}`),
  };
  return adapter satisfies AdapterWrites;
}

export type Adapter = ReturnType<typeof openAdapter>;
