#!/usr/bin/env node
// Generates both Prisma clients into server/db/generated/{sqlite,postgres} (not committed) and
// stamps them with the schemas' digest. Runs at `npm install` (postinstall) and again from
// `npm start` whenever the schema changed since (e.g. after a `git pull`). Plain JavaScript: it
// runs before anything else is set up.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "server/db/generated/.schema-digest");
const providers = ["sqlite", "postgres"];

export function schemaDigest() {
  const hash = createHash("sha256");
  for (const provider of providers)
    hash.update(readFileSync(join(root, "prisma", provider, "schema.prisma")));
  hash.update(JSON.parse(readFileSync(join(root, "node_modules/prisma/package.json"), "utf8")).version);
  return hash.digest("hex");
}

export function clientsAreCurrent() {
  return (
    providers.every((p) => existsSync(join(root, "server/db/generated", p, "client.ts"))) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8").trim() === schemaDigest()
  );
}

export function generateClients() {
  const cli = join(dirname(createRequire(import.meta.url).resolve("prisma/package.json")), "build/index.js");
  for (const provider of providers) {
    const result = spawnSync(
      process.execPath,
      [cli, "generate", "--schema", `prisma/${provider}/schema.prisma`],
      {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      },
    );
    if (result.status !== 0) throw new Error(`prisma generate failed for ${provider}`);
  }
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${schemaDigest()}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    // --if-stale: `npm start` asks; nothing to do when the stamp matches the schemas.
    if (process.argv.includes("--if-stale") && clientsAreCurrent()) process.exit(0);
    if (process.argv.includes("--if-stale"))
      console.log("The schema changed: regenerating the Prisma clients…");
    generateClients();
  } catch (error) {
    console.error(String(error));
    process.exit(1);
  }
}
