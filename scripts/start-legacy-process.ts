// The demo legacy service as a separate process, the way `npm start` runs it: the benches call
// it directly (the baseline) and through Signpost, so both pay the same process hop.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./next-build";
import { spawnAnnouncingProcess } from "./spawn-announcing-process";

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
  const { child, url } = await spawnAnnouncingProcess(join(root, "server/legacy/main.ts"), {
    name: "the legacy service",
    cwd: root,
    env: {
      ...process.env,
      LEGACY_PORT: "0",
      LEGACY_DB: join(dir, "legacy.sqlite"),
      LEGACY_API_KEYS: JSON.stringify(apiKeys),
      LEGACY_ADMIN_KEY: randomBytes(16).toString("hex"),
      LEGACY_LOG: "0",
    },
  });
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
