import { isAbsolute, resolve } from "node:path";

export type DbProvider = "sqlite" | "postgres";
/** Environment variables (process.env or a plain object in tests). */
export type Env = Record<string, string | undefined>;

/** The data directory: SQLite file, master key, legacy store and demo.json live here. */
export function dataDir(env: Env = process.env): string {
  // turbopackIgnore: a runtime path, not a file to bundle (else Next traces the whole project).
  return resolve(/* turbopackIgnore: true */ env.SIGNPOST_DATA_DIR ?? "./data");
}

export function providerOf(url: string): DbProvider {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/**
 * The database URL in effect: DATABASE_URL, else the embedded SQLite file in the data
 * directory. Relative SQLite paths are made absolute so every tool (CLI, engine, app)
 * opens the same file whatever its working directory.
 */
export function databaseUrl(env: Env = process.env): string {
  const url = env.DATABASE_URL?.trim();
  if (!url) return `file:${resolve(/* turbopackIgnore: true */ dataDir(env), "signpost.db")}`;
  if (providerOf(url) === "postgres") return url;
  const path = url.replace(/^file:/, "");
  return `file:${isAbsolute(path) ? path : resolve(/* turbopackIgnore: true */ path)}`;
}

/** The file path of a SQLite URL. */
export function sqliteFile(url: string): string {
  return url.replace(/^file:/, "").replace(/\?.*$/, "");
}
