import type { NextConfig } from "next";

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
  ],
  poweredByHeader: false,
};

export default config;
