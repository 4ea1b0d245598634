import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";
import { databaseUrl, providerOf } from "./server/db/database-url";

// One schema and one migrations folder per provider; the URL scheme of DATABASE_URL picks
// which (SQLite by default). prisma/postgres/schema.prisma is generated from the SQLite one.
const url = databaseUrl();
const provider = providerOf(url);

// Prisma's native schema engine is downloaded on first use from a host we cannot reach;
// our shim runs the same engine compiled to WebAssembly. `??=` keeps a real engine usable
// where someone provides one.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(
  new URL("./prisma/engine/schema-engine.mjs", import.meta.url),
);

export default defineConfig({
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  datasource: { url },
});
