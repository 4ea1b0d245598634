// `npx tsx scripts/bench-log-line.ts <checkout A> <checkout B>` (env LINES=20000, ROUNDS=5): what
// one access line of an MCP tool call costs the process logger of each checkout, its redaction
// included: bytes allocated per line (a young generation large enough that no collection runs
// while it is counted, checked) and CPU µs per line. Each round runs A then B in fresh processes,
// so load from other processes on a shared machine falls on both alike: compare the ratio.
import { join } from "node:path";
import { type LogLineSample, runLogLineProbe } from "./log-line-probe";

const roots = process.argv.slice(2);
if (roots.length === 0) throw new Error("usage: bench-log-line.ts <checkout> [<checkout> …]");
const LINES = Number(process.env.LINES ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const samples = new Map<string, LogLineSample[]>(roots.map((r) => [r, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const root of roots) {
    // Bytes with a young generation no line fills; CPU with Node's default heap, as serve runs.
    const counted = runLogLineProbe(root, {
      lines: LINES,
      flags: ["--min-semi-space-size=128", "--max-semi-space-size=128"],
    });
    samples.get(root)?.push({ ...counted, cpuUs: runLogLineProbe(root, { lines: LINES, flags: [] }).cpuUs });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`| checkout | bytes allocated / line | CPU µs / line | collections while counting |`);
console.log(`|---|---|---|---|`);
for (const [root, s] of samples)
  console.log(
    `| ${join(root)} | ${Math.round(median(s.map((x) => x.bytes)))} | ${median(s.map((x) => x.cpuUs)).toFixed(1)} | ${Math.max(...s.map((x) => x.gcs))} |`,
  );
