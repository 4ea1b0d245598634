import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./server/security-headers";

const config: NextConfig = {
  // Native and server-only packages stay outside the bundle.
  // gpt-tokenizer: the catalog's token counts load its 8 MB of BPE ranks at runtime, not into the bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "pino",
    "pg",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "gpt-tokenizer",
    // Chinese segmentation for capability search: a native binary and its dictionary, loaded at run time.
    "@node-rs/jieba",
    // Shared with the modules the HTTP server loads itself (one registry, one client per process).
    "prom-client",
    "rate-limiter-flexible",
    "ioredis",
    // The egress policy's dispatcher and address classification (server/egress/).
    "undici",
    "ipaddr.js",
  ],
  poweredByHeader: false,
  // forbidden() answers a page a role may not open with app/forbidden.tsx and HTTP 403.
  experimental: { authInterrupts: true },
  // No site may frame Signpost (a framed confirm page could be clickjacked into an approval).
  // The MCP App confirmation screen is not affected: it is an MCP resource rendered by the host,
  // with its own CSP in `_meta.ui.csp` (mcp/register-confirm-app.ts), not an HTTP page of ours.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })),
      },
    ];
  },
};

export default config;
