import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/**
 * Every request the OAuth parts make to another server (a Client ID Metadata Document, the
 * company's OpenID provider: discovery, JWKS, token) goes through this one function, so that a
 * shared egress policy can be put in front of all of them in one place.
 *
 * Bounded: one attempt, no redirects followed (the caller sees a 3xx), a time budget and a size
 * cap on the answer. `SIGNPOST_EGRESS_CA_FILE` adds a certificate authority an operator trusts
 * (a company's internal IdP behind a private CA), read once per process.
 */
export const OUTBOUND_TIMEOUT_MS = 5_000;
export const OUTBOUND_MAX_BYTES = 512 * 1024;

let extraCa: { file: string; pem: string } | undefined;
function caFromEnv(): string | undefined {
  const file = process.env.SIGNPOST_EGRESS_CA_FILE;
  if (!file) return undefined;
  if (extraCa?.file !== file) extraCa = { file, pem: readFileSync(file, "utf8") };
  return extraCa.pem;
}

export async function outboundFetch(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const request = new Request(input, { ...init, redirect: "manual" });
  const url = new URL(request.url);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`outbound request refused: ${url.protocol} is not http or https`);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.length);
  const signal = AbortSignal.any([
    AbortSignal.timeout(OUTBOUND_TIMEOUT_MS),
    ...(init.signal ? [init.signal] : []),
  ]);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const ca = url.protocol === "https:" ? caFromEnv() : undefined;

  return new Promise<Response>((resolve, reject) => {
    const req = send(url, { method: request.method, headers, signal, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > OUTBOUND_MAX_BYTES) {
          res.destroy();
          reject(new Error(`outbound answer larger than ${OUTBOUND_MAX_BYTES} bytes from ${url.host}`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", reject);
      res.on("end", () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
        }
        const status = res.statusCode ?? 502;
        const nullBody = status === 204 || status === 304 || request.method === "HEAD";
        resolve(
          new Response(nullBody ? null : Buffer.concat(chunks), {
            status,
            headers: answer,
          }),
        );
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
