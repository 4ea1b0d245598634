import { open, stat } from "node:fs/promises";
import { EGRESS_FAILURE, egressFetch } from "../../egress/egress-fetch";
import { type OpenApiResult, problem } from "./openapi-import-problem";
import { OPENAPI_LIMITS } from "./openapi-limits";

const tooLarge = (bytes: number | "more", max: number) =>
  problem(
    "too_large",
    `The document is ${bytes === "more" ? "larger than" : `${(bytes / 1024 / 1024).toFixed(1)} MB, over`} the ${max / 1024 / 1024} MB an import may be; import a smaller document (split the API, or drop unused paths).`,
  );

/**
 * A document's text from a file or an http(s) URL, read only up to the size cap: a 50 MB file is
 * refused from its size alone, and a download stops as soon as it passes the cap, so nothing
 * oversized is ever held in memory or parsed.
 */
export async function readOpenApiSource(
  source: string,
  options: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<OpenApiResult<{ text: string; from: "file" | "url" }>> {
  const max = options.maxBytes ?? OPENAPI_LIMITS.maxDocumentBytes;
  if (/^https?:\/\//i.test(source)) return readUrl(source, max, options);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source))
    return problem("unreadable", "A document is read from a file or an http(s) URL only.");
  let size: number;
  try {
    const info = await stat(source);
    if (!info.isFile()) return problem("unreadable", `${source} is not a file.`);
    size = info.size;
  } catch (error) {
    return problem(
      "unreadable",
      `Cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? "error"}.`,
    );
  }
  if (size > max) return tooLarge(size, max);
  const handle = await open(source, "r");
  try {
    // Read at most max + 1 bytes: a file that grew after stat is still refused, not read whole.
    const buffer = Buffer.alloc(Math.min(size, max) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > max) return tooLarge("more", max);
    return { ok: true, value: { text: buffer.subarray(0, bytesRead).toString("utf8"), from: "file" } };
  } finally {
    await handle.close();
  }
}

/** The one answer to every URL that gave no document (refused, unreachable, not 2xx, timed out). */
const cannotFetch = problem("unreadable", `Cannot fetch the document: ${EGRESS_FAILURE}.`);

async function readUrl(
  url: string,
  max: number,
  options: { timeoutMs?: number },
): Promise<OpenApiResult<{ text: string; from: "url" }>> {
  let res: Response;
  try {
    // Through the egress policy, redirects re-checked hop by hop.
    res = await egressFetch(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, */*" },
      redirect: "follow",
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch {
    return cannotFetch;
  }
  // The status is not told: an error page and a closed port read the same (no port scanning).
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return cannotFetch;
  }
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    return tooLarge(declared, max);
  }
  const reader = res.body?.getReader();
  if (!reader) return problem("unreadable", "The document's response had no body.");
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel();
        return tooLarge("more", max);
      }
      chunks.push(value);
    }
  } catch {
    return cannotFetch;
  }
  return { ok: true, value: { text: Buffer.concat(chunks).toString("utf8"), from: "url" } };
}
