#!/usr/bin/env node
// `npx signpost <command>`: headless administration and the production server. A thin launcher:
// the commands are TypeScript (scripts/cli.ts, scripts/serve.ts), run through tsx so they share
// the app's modules.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Where the commands find files of their own at run time (the script sandbox's thread entry),
// wherever the launcher was started from.
process.env.SIGNPOST_ROOT ??= root;
const require = createRequire(import.meta.url);
const [command, ...rest] = process.argv.slice(2);

if (command === "--version" || command === "-v" || command === "version") {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  process.stdout.write(`signpost ${version} (node ${process.versions.node})\n`);
  process.exit(0);
}

const tsx = pathToFileURL(require.resolve("tsx")).href;

/**
 * Runs the command in a child and exits with its status. Signals are passed on rather than
 * killing this launcher (the default), which would leave the child running with nobody waiting
 * for it: SIGTERM to `npx signpost serve` reaches the server, which shuts down gracefully.
 */
function run(script, args, env = process.env) {
  // Signpost's own tsconfig (its `@/` paths), whichever folder the command is run from.
  const child = spawn(process.execPath, ["--import", tsx, join(root, script), ...args], {
    stdio: "inherit",
    env: { TSX_TSCONFIG_PATH: join(root, "tsconfig.json"), ...env },
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

if (command === "mcp") {
  // The MCP stdio face (for local MCP hosts): `npx signpost mcp --key sp_…` or SIGNPOST_AGENT_KEY.
  const entry = "mcp/stdio.ts";
  if (!existsSync(join(root, entry))) {
    process.stderr.write("signpost mcp: the MCP stdio face is not available in this build yet.\n");
    process.exit(2);
  }
  // stdout carries the protocol: log lines go to stderr.
  const env = { ...process.env, SIGNPOST_LOG_STDERR: "1" };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--key") env.SIGNPOST_AGENT_KEY = rest[++i];
    else if (rest[i] === "--faces") env.SIGNPOST_FACES = rest[++i];
  }
  run(entry, [], env);
} else if (command === "serve") {
  // Node's warnings reach the log as JSON lines (serve.ts), not as plain text on stderr.
  run("scripts/serve.ts", rest, { ...process.env, NODE_NO_WARNINGS: "1" });
} else {
  run("scripts/cli.ts", process.argv.slice(2));
}
