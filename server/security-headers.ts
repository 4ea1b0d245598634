/**
 * What every HTTP answer of Signpost carries: no site may frame it (a framed confirm page could
 * be clickjacked into an approval) and no answer is content-sniffed. Next.js sets them on its
 * answers (next.config.ts); serve's own /mcp route on node:http sets the same (mcp/mcp-node-route.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
};
