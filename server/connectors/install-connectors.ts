import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { logger } from "../logger";
import { registerConnector } from "./connector-registry";
import type { AnyConnector } from "./sdk/define-connector";

/** What installing a folder of connectors did: each connector loaded, each file refused and why. */
export interface InstallReport {
  installed: Array<{ id: string; file: string }>;
  refused: Array<{ file: string; problem: string }>;
}

const ENTRY_NAMES = ["index.ts", "index.mts", "index.js", "index.mjs"];

/** Signpost's own folder: the default `connectors/` is there, never wherever a command was run. */
const SIGNPOST_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Why code at `path` must not be run, or null. Installing a connector runs its code with the
 * server's rights, so it must be as well guarded as Signpost's own files: owned by this user (or
 * root) and writable by no one else.
 */
function untrusted(path: string): string | null {
  const stat = statSync(path);
  if (stat.mode & 0o022)
    return `${path} is writable by other users; a connector runs with the server's rights`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid && stat.uid !== 0)
    return `${path} belongs to another user (uid ${stat.uid}); a connector runs with the server's rights`;
  return null;
}

/**
 * The connector modules a folder holds: each subfolder's `index.(ts|js)` (a connector is one
 * folder), sorted by name so that registration order (and so route order) is stable. What
 * cannot be read or must not be run is reported, not thrown: one bad entry never stops a start.
 */
export function connectorEntries(dir: string): { entries: string[]; refused: InstallReport["refused"] } {
  const entries: string[] = [];
  const refused: InstallReport["refused"] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const folder = join(dir, name);
    try {
      if (!statSync(folder).isDirectory()) continue;
      const entry = ENTRY_NAMES.map((file) => join(folder, file)).find((file) => existsSync(file));
      if (!entry) continue;
      const problem = untrusted(folder) ?? untrusted(entry);
      if (problem) refused.push({ file: entry, problem });
      else entries.push(realpathSync(entry));
    } catch (error) {
      refused.push({ file: folder, problem: `cannot be read: ${(error as Error).message}` });
    }
  }
  return { entries, refused };
}

function definitionOf(mod: Record<string, unknown>): AnyConnector | null {
  const candidate = (mod.default ?? mod.connector) as AnyConnector | undefined;
  return candidate && typeof candidate === "object" && typeof candidate.id === "string" ? candidate : null;
}

/**
 * TypeScript diagnostics for the entry files (development only: the compiler is a dev
 * dependency and takes a second or two). Each problem names its file, line and column.
 */
async function typeProblems(files: string[]): Promise<Map<string, string>> {
  const problems = new Map<string, string>();
  const tsFiles = files.filter((f) => /\.m?ts$/.test(f));
  if (tsFiles.length === 0) return problems;
  const ts = (await import("typescript")).default;
  const program = ts.createProgram(tsFiles, {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  });
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName;
    if (!file) continue;
    // The connector whose folder holds the file (the longest match: `crm/` is not `crm2/`).
    const entry = tsFiles
      .filter((f) => file.startsWith(dirname(f) + sep))
      .sort((a, b) => b.length - a.length)[0];
    if (!entry || problems.has(entry)) continue;
    const { line, character } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? {
      line: 0,
      character: 0,
    };
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    problems.set(entry, `type error at ${file}:${line + 1}:${character + 1}: ${text}`);
  }
  return problems;
}

/**
 * Installs every connector in the given folders (SIGNPOST_CONNECTORS_DIR), in this process.
 * One that fails to load, type-check or register is refused with a sentence naming its file;
 * the others still install, and Signpost starts either way.
 */
export async function installConnectors(
  dirs: string[],
  options: { typecheck?: boolean } = {},
): Promise<InstallReport> {
  const report: InstallReport = { installed: [], refused: [] };
  const files: string[] = [];
  for (const dir of dirs) {
    const absolute = resolve(dir);
    try {
      if (!statSync(absolute).isDirectory()) throw new Error("not a folder");
      const problem = untrusted(absolute);
      if (problem) throw new Error(problem);
      const found = connectorEntries(absolute);
      files.push(...found.entries);
      report.refused.push(...found.refused);
    } catch (error) {
      report.refused.push({ file: absolute, problem: (error as Error).message });
    }
  }
  const typed = options.typecheck ? await typeProblems(files) : new Map<string, string>();
  for (const file of files) {
    const typeProblem = typed.get(file);
    if (typeProblem) report.refused.push({ file, problem: typeProblem });
    else await installEntry(file, report);
  }
  return report;
}

/** Loads one entry file and registers its connector, or says in the report why not. */
async function installEntry(file: string, report: InstallReport): Promise<AnyConnector | null> {
  try {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const def = definitionOf(mod);
    if (!def) {
      report.refused.push({ file, problem: "exports no connector (export default defineConnector({...}))" });
      return null;
    }
    const registered = registerConnector(def);
    if (registered.ok) report.installed.push({ id: def.id, file });
    else report.refused.push({ file, problem: registered.problem });
    return registered.ok ? def : null;
  } catch (error) {
    report.refused.push({ file, problem: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/**
 * Installs the one connector in `folder` (its `index.ts`), with the same checks as a start
 * (owner, registration): the connector test kit's way in. Throws with the reason when refused.
 */
export async function installConnectorFolder(folder: string): Promise<AnyConnector> {
  const absolute = resolve(folder);
  const entry = ENTRY_NAMES.map((file) => join(absolute, file)).find((file) => existsSync(file));
  if (!entry) throw new Error(`${absolute} has no ${ENTRY_NAMES.join(" / ")}`);
  const report: InstallReport = { installed: [], refused: [] };
  const problem = untrusted(absolute) ?? untrusted(entry);
  const def = problem ? null : await installEntry(realpathSync(entry), report);
  if (!def) throw new Error(`${entry} was not installed: ${problem ?? report.refused[0]?.problem}`);
  return def;
}

/** The folders SIGNPOST_CONNECTORS_DIR names (separated by the platform's path delimiter or commas). */
export function connectorDirs(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .flatMap((part) => part.split(delimiter))
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Installs SIGNPOST_CONNECTORS_DIR's connectors (default: Signpost's own `connectors/` when it
 * exists, never the folder a command happens to run in) and
 * logs one line per connector installed or refused. Every server entry calls it before serving.
 */
export async function installConnectorsFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: { typecheck?: boolean } = {},
): Promise<InstallReport> {
  const dirs = connectorDirs(env.SIGNPOST_CONNECTORS_DIR);
  if (dirs.length === 0 && existsSync(join(SIGNPOST_ROOT, "connectors")))
    dirs.push(join(SIGNPOST_ROOT, "connectors"));
  const report = await installConnectors(dirs, options);
  for (const { id, file } of report.installed)
    logger.info(
      { event: "connector_installed", connector: id, file },
      `Installed connector ${id} from ${file}`,
    );
  for (const { file, problem } of report.refused)
    logger.error(
      { event: "connector_refused", file, problem },
      `Connector ${file} was not installed: ${problem}`,
    );
  return report;
}
