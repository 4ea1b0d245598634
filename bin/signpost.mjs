#!/usr/bin/env node
// `npx signpost <command>`: headless administration. A thin launcher: the commands are
// TypeScript (scripts/cli.ts), run through tsx so they share the app's modules.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsx = pathToFileURL(require.resolve("tsx")).href;
const [command, ...rest] = process.argv.slice(2);

function run(script, args, env = process.env) {
  const result = spawnSync(process.execPath, ["--import", tsx, join(root, script), ...args], {
    stdio: "inherit",
    env,
  });
  process.exit(result.status ?? 1);
}

if (command === "mcp") {
  // The MCP stdio face (for local MCP hosts): `npx signpost mcp --key sp_…` or SIGNPOST_AGENT_KEY.
  const entry = "mcp/stdio.ts";
  if (!existsSync(join(root, entry))) {
    process.stderr.write("signpost mcp: the MCP stdio face is not available in this build yet.\n");
    process.exit(2);
  }
  const env = { ...process.env };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--key") env.SIGNPOST_AGENT_KEY = rest[++i];
    else if (rest[i] === "--faces") env.SIGNPOST_FACES = rest[++i];
  }
  run(entry, [], env);
} else {
  run("scripts/cli.ts", process.argv.slice(2));
}
