/**
 * Where to go after sign-in: only a path on this site, else "/". Shared by the sign-in page
 * (server redirect) and the sign-in form (client navigation), so both follow the same rule.
 *
 * Prefix checks are not enough: browsers drop tabs and newlines from URLs and treat "\" as "/",
 * so "/\t/evil.com" passes `startsWith("/") && !startsWith("//")` and still lands on
 * https://evil.com/. The candidate is therefore parsed the way a browser would, against a
 * placeholder origin, and kept only when that origin survives; what is returned is rebuilt from
 * the parsed pathname, search and hash, never the raw text.
 */
const PLACEHOLDER_ORIGIN = "http://signpost.invalid";

// Control characters and backslashes, raw or percent-encoded (%00-%1F, %7F, %5C): no legitimate
// console path carries them, and they are how parser differences are smuggled in.
const ENCODED_SUSPICIOUS = /%(?:[01][0-9a-f]|7f|5c)/i;

function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return ENCODED_SUSPICIOUS.test(text);
}

export function safeNext(next: unknown): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return "/";
  if (!next.startsWith("/") || hasControlOrBackslash(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise into a protocol-relative path ("/.//evil.com" → "//evil.com").
  if (!path.startsWith("/") || path.startsWith("//")) return "/";
  return path;
}
