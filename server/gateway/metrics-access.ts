import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether a scrape may read /metrics: anyone when SIGNPOST_METRICS_TOKEN is unset (keep the
 * port off the internet then), else only `Authorization: Bearer <token>`. Compared as digests in
 * constant time, so neither the token's length nor its prefix leaks through timing.
 */
export function metricsAccessAllowed(
  authorization: string | null,
  token: string | undefined = process.env.SIGNPOST_METRICS_TOKEN,
): boolean {
  const expected = token?.trim();
  if (!expected) return true;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
