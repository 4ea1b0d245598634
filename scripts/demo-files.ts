// The files `npm start` keeps in the data directory besides the database:
// legacy.json (the demo legacy service's keys, so every start uses the same ones) and
// demo.json (what a person or a script needs to try the demo). Both mode 0600.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const legacyKeysSchema = z
  .object({
    apiKeys: z.object({ acme: z.string().min(8), globex: z.string().min(8) }).strict(),
    adminKey: z.string().min(8),
    url: z.string().optional(), // the URL the connector configs were last pointed at
  })
  .strict();
export type LegacyKeys = z.infer<typeof legacyKeysSchema>;

export const demoInfoSchema = z
  .object({
    consoleUrl: z.string(),
    mcpUrl: z.string(),
    legacy: z.object({ url: z.string(), adminKey: z.string() }).strict(),
    logins: z.array(
      z.object({ tenant: z.string(), email: z.string(), role: z.string(), password: z.string() }).strict(),
    ),
    agents: z.array(
      z
        .object({
          tenant: z.string(),
          user: z.string(),
          name: z.string(),
          keyPrefix: z.string(),
          key: z.string(),
        })
        .strict(),
    ),
  })
  .strict();
export type DemoInfo = z.infer<typeof demoInfoSchema>;

function writePrivate(file: string, data: unknown): void {
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing file keeps its old mode on write
}

/** The legacy keys of this data directory, generated at random on first use. */
export function loadOrCreateLegacyKeys(dataDir: string): LegacyKeys {
  const file = join(dataDir, "legacy.json");
  if (existsSync(file)) return legacyKeysSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  mkdirSync(dataDir, { recursive: true });
  const keys: LegacyKeys = {
    apiKeys: {
      acme: `lk_acme_${randomBytes(16).toString("hex")}`,
      globex: `lk_globex_${randomBytes(16).toString("hex")}`,
    },
    adminKey: `la_${randomBytes(16).toString("hex")}`,
  };
  writePrivate(file, keys);
  return keys;
}

export function saveLegacyKeys(dataDir: string, keys: LegacyKeys): void {
  writePrivate(join(dataDir, "legacy.json"), keys);
}

export function demoFile(dataDir: string): string {
  return join(dataDir, "demo.json");
}

export function readDemoInfo(dataDir: string): DemoInfo | null {
  const file = demoFile(dataDir);
  if (!existsSync(file)) return null;
  const parsed = demoInfoSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success ? parsed.data : null;
}

export function writeDemoInfo(dataDir: string, info: DemoInfo): void {
  mkdirSync(dataDir, { recursive: true });
  writePrivate(demoFile(dataDir), demoInfoSchema.parse(info));
}
