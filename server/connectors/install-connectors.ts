import { existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { logger } from "../logger";
import { registerConnector } from "./connector-registry";
import type { AnyConnector } from "./sdk/define-connector";

/** What installing a folder of connectors did: each connector loaded, each file refused and why. */
export interface InstallReport {
  installed: Array<{ id: string; file: string }>;
  refused: Array<{ file: string; problem: string }>;
}

const ENTRY_NAMES = ["index.ts", "index.mts", "index.js", "index.mjs"];

/**
 * The connector modules a folder holds: each subfolder's `index.(ts|js)` (a connector is one
 * folder), sorted by name so that registration order (and so route order) is stable.
 */
export function connectorEntries(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory() && !path.endsWith("node_modules"))
    .flatMap((folder) => {
      const entry = ENTRY_NAMES.map((name) => join(folder, name)).find((file) => existsSync(file));
      return entry ? [entry] : [];
    });
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
    const entry = tsFiles.find((f) => file.startsWith(resolve(f, "..")));
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
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
      report.refused.push({ file: absolute, problem: "not a folder" });
      continue;
    }
    files.push(...connectorEntries(absolute));
  }
  const typed = options.typecheck ? await typeProblems(files) : new Map<string, string>();
  for (const file of files) {
    const typeProblem = typed.get(file);
    if (typeProblem) {
      report.refused.push({ file, problem: typeProblem });
      continue;
    }
    try {
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const def = definitionOf(mod);
      if (!def) {
        report.refused.push({
          file,
          problem: "exports no connector (export default defineConnector({...}))",
        });
        continue;
      }
      const registered = registerConnector(def);
      if (registered.ok) report.installed.push({ id: def.id, file });
      else report.refused.push({ file, problem: registered.problem });
    } catch (error) {
      report.refused.push({ file, problem: error instanceof Error ? error.message : String(error) });
    }
  }
  return report;
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
 * Installs SIGNPOST_CONNECTORS_DIR's connectors (default: `./connectors` when it exists) and
 * logs one line per connector installed or refused. Every server entry calls it before serving.
 */
export async function installConnectorsFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: { typecheck?: boolean } = {},
): Promise<InstallReport> {
  const dirs = connectorDirs(env.SIGNPOST_CONNECTORS_DIR);
  if (dirs.length === 0 && existsSync(resolve("connectors"))) dirs.push(resolve("connectors"));
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
