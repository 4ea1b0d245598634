// The demo legacy service as a separate process, the way `npm start` runs it: the benches call
// it directly (the baseline) and through Signpost, so both pay the same process hop.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./next-build";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export type LegacyProcess = Awaited<ReturnType<typeof startLegacyProcess>>;

/** The demo legacy service as `npm start` runs it: its own process, its own SQLite store. */
export async function startLegacyProcess(): Promise<{
  url: string;
  apiKeys: { acme: string; globex: string };
  stop(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), "signpost-bench-legacy-"));
  const apiKeys = {
    acme: `acme_${randomBytes(12).toString("hex")}`,
    globex: `globex_${randomBytes(12).toString("hex")}`,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", tsx, join(root, "server/legacy/main.ts")],
    {
      cwd: root,
      env: {
        ...process.env,
        LEGACY_PORT: "0",
        LEGACY_DB: join(dir, "legacy.sqlite"),
        LEGACY_API_KEYS: JSON.stringify(apiKeys),
        LEGACY_ADMIN_KEY: randomBytes(16).toString("hex"),
        LEGACY_LOG: "0",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the legacy service exited with ${code}`)));
  });
  child.stdout?.resume();
  return {
    url,
    apiKeys,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
