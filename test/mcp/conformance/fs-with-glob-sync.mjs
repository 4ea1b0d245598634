// `fs` for @modelcontextprotocol/conformance on Node 20: node:fs plus the `globSync` Node 22 added.
// Only the `**/<file name>` form the suite uses (reading result folders) is supported.
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const name = String(pattern).replace(/^\*\*\//, "");
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const rel = dir ? path.join(dir, entry.name) : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === name) out.push(rel);
    }
  };
  if (fs.existsSync(cwd)) walk("");
  return out;
}
