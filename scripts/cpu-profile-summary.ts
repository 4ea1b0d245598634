// `npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--callers NAME]`:
// where a V8 CPU profile (from `bench-latency --cpu-prof DIR`) spent its time, as text. Frames of
// the Next.js bundle are mapped back to their sources through the chunks' source maps. Prints
// self time by package or source folder, self time by function, and with --callers the call
// chains above a function whose name or file contains NAME. --from/--to keep a window of the
// run (seconds since the profile started), e.g. to leave out the server's start-up.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string", default: "0" },
    to: { type: "string", default: "1e9" },
    callers: { type: "string" },
    top: { type: "string", default: "30" },
  },
});
const file = positionals[0];
if (!file)
  throw new Error("usage: cpu-profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--callers NAME]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const TOP = Number(flags.top);

/** Bundle frames (.next chunks) rewritten to the source line their map names. */
function mapToSources(nodes: ProfileNode[]): void {
  const maps = new Map<string, SourceMap | null>();
  for (const { callFrame: frame } of nodes) {
    if (!frame.url.includes("/.next/")) continue;
    if (!maps.has(frame.url)) {
      const path = `${fileURLToPath(frame.url)}.map`;
      maps.set(frame.url, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, "utf8"))) : null);
    }
    const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry || !("originalSource" in entry) || !entry.originalSource) continue;
    frame.url = entry.originalSource.replace(/^.*\[project\]\//, "").replace(/^turbopack:\/+/, "");
    frame.lineNumber = entry.originalLine;
    // Minified names (`eP`) give way to the source's; Node's typings omit the mapping's `name`.
    const name = (entry as { name?: string }).name;
    if (name && frame.functionName.length <= 3) frame.functionName = name;
  }
}

/** A package (node_modules), a Node internal, or the project's source file. */
function moduleOf(url: string): string {
  if (!url) return "(V8: idle, GC, native)";
  const packages = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/g);
  if (packages) return (packages.at(-1) as string).replace("node_modules/", "");
  if (url.startsWith("node:")) return url;
  const path = url
    .replace(/^file:\/\/.*?\/(app|components|mcp|server|scripts)\//, "$1/")
    .replace(/^(\.\.\/)+/, "");
  return path;
}

const label = (frame: Frame) =>
  `${frame.functionName || "(anonymous)"} ${moduleOf(frame.url)}:${frame.lineNumber + 1}`;

mapToSources(profile.nodes);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const from = Number(flags.from) * 1e6;
const to = Number(flags.to) * 1e6;
const selfByNode = new Map<number, number>();
let total = 0;
let elapsed = 0;
for (const [i, sample] of profile.samples.entries()) {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed < from || elapsed > to) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfByNode.set(sample, (selfByNode.get(sample) ?? 0) + dt);
  total += dt;
}

function top(key: (node: ProfileNode) => string): Array<[string, number]> {
  const sums = new Map<string, number>();
  for (const [id, time] of selfByNode) {
    const k = key(byId.get(id) as ProfileNode);
    sums.set(k, (sums.get(k) ?? 0) + time);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, TOP);
}

const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`${(total / 1e6).toFixed(2)} s sampled between ${flags.from} s and ${flags.to} s\n`);
console.log("self time by module");
for (const [k, t] of top((n) => moduleOf(n.callFrame.url))) console.log(pct(t), k);
console.log("\nself time by function");
for (const [k, t] of top((n) => label(n.callFrame))) console.log(pct(t), k);

if (flags.callers) {
  const name = flags.callers;
  const chains = new Map<string, number>();
  let under = 0;
  for (const [id, time] of selfByNode) {
    let hit: number | undefined;
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur))
      if (label((byId.get(cur) as ProfileNode).callFrame).includes(name)) hit = cur;
    if (hit === undefined) continue;
    under += time;
    const chain: string[] = [];
    for (let cur = parentOf.get(hit); cur !== undefined && chain.length < 8; cur = parentOf.get(cur))
      chain.push(label((byId.get(cur) as ProfileNode).callFrame));
    const k = chain.join(" < ");
    chains.set(k, (chains.get(k) ?? 0) + time);
  }
  console.log(`\nunder "${name}": ${pct(under)} of the window, by caller chain`);
  for (const [k, t] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(pct(t), k);
}
