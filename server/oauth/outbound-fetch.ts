import { egressFetch } from "../egress/egress-fetch";

/**
 * Every request the OAuth parts make to another server (a Client ID Metadata Document, the
 * company's OpenID provider: discovery, JWKS, token) goes through this one function, and it
 * through the egress policy like every other request of the server (private addresses refused
 * unless an operator allowed them, checked again at connect time; `SIGNPOST_EGRESS_CA_FILE`
 * trusts a company's private certificate authority).
 *
 * Bounded: one attempt, no redirects followed (the caller sees a 3xx), a time budget and a size
 * cap on the answer, which is read whole here so a slow or endless body cannot hold a sign-in.
 */
export const OUTBOUND_TIMEOUT_MS = 5_000;
export const OUTBOUND_MAX_BYTES = 512 * 1024;

async function boundedBody(response: Response, host: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > OUTBOUND_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`outbound answer larger than ${OUTBOUND_MAX_BYTES} bytes from ${host}`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

export async function outboundFetch(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const request = new Request(input, { ...init, redirect: "manual" });
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const signal = AbortSignal.any([
    AbortSignal.timeout(OUTBOUND_TIMEOUT_MS),
    ...(init.signal ? [init.signal] : []),
  ]);
  const response = await egressFetch(url, {
    method: request.method,
    headers: request.headers,
    body,
    redirect: "manual",
    signal,
  });
  const status = response.status;
  const nullBody = status === 204 || status === 304 || request.method === "HEAD";
  const bytes = await boundedBody(response, url.host);
  return new Response(nullBody ? null : new Uint8Array(bytes), { status, headers: response.headers });
}
