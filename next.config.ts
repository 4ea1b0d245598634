import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "pino", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
  poweredByHeader: false,
};

export default config;
