import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { connectors } from "@/server/connectors/connector-registry";
import { RESERVED_SCHEMES } from "@/server/connectors/sdk/define-connector";
import { SCHEME_PATTERN } from "@/server/connectors/sdk/parse-browse-uri";
import { root } from "./next-build";

const TEMPLATE = join(root, "scripts", "connector-template");

/**
 * `npx signpost new-connector <id>`: writes a working connector — a listing page, a detail page,
 * a form, a capability with a confirmation node, a stand-in for the system and a test — into
 * `<dir>/<id>/`, from scripts/connector-template (which CI type-checks, so the scaffold compiles).
 */
export function scaffoldConnector(id: string, dir: string): { folder: string; files: string[] } {
  if (!SCHEME_PATTERN.test(id))
    throw new Error(
      `"${id}" is not a connector id: 2-30 lowercase letters or digits, starting with a letter`,
    );
  if (RESERVED_SCHEMES.includes(id)) throw new Error(`"${id}" is a scheme Signpost reserves`);
  if (connectors().some((c) => c.id === id)) throw new Error(`a connector "${id}" is already installed`);
  const folder = resolve(dir, id);
  if (existsSync(folder)) throw new Error(`${folder} already exists; nothing was written`);
  const title = `${id.charAt(0).toUpperCase()}${id.slice(1)}`;
  const rename = (text: string) =>
    text.replaceAll("example", id).replaceAll("Example", title).replaceAll("EXAMPLE", id.toUpperCase());
  mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  for (const name of readdirSync(TEMPLATE).sort()) {
    const target = join(folder, rename(name));
    writeFileSync(target, rename(readFileSync(join(TEMPLATE, name), "utf8")));
    files.push(target);
  }
  return { folder, files };
}

export function newConnectorCommand(args: string[], say: (line: string) => void): void {
  const id = args[0] ?? "";
  const dirFlag = args.indexOf("--dir");
  const dir = dirFlag >= 0 ? (args[dirFlag + 1] ?? "") : "connectors";
  const { folder, files } = scaffoldConnector(id, dir);
  const shown = relative(process.cwd(), folder) || folder;
  say(`Wrote the ${id} connector to ${shown}/ (${files.length} files).`);
  say("Next:");
  say(`  1. Try it against its stand-in system:  node --import tsx ${shown}/dev-system.ts`);
  say(`  2. Run its tests:                      npx vitest run ${shown}`);
  say(
    `  3. Start Signpost with it:              SIGNPOST_CONNECTORS_DIR=${relative(process.cwd(), resolve(dir)) || "."} npm start`,
  );
  say(
    `  4. On the console's Connectors page, set ${id}'s base URL (the address step 1 printed) and its api_key (dev-key).`,
  );
  say(
    `  5. Replace the paths in ${shown}/adapter.ts with your system's, and grow the routes and capabilities.`,
  );
}
