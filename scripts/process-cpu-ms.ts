import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (all threads) a process has used so far, in ms; null where Linux's /proc is not
 * there. Steadier than milliseconds of latency on a shared machine: other processes' load delays
 * a call but does not add to its CPU. Read from each thread's schedstat (nanoseconds) when it can
 * be: /proc/<pid>/stat counts in clock ticks of 10 ms, too coarse for a block of a few dozen calls
 * (the benches read it around each block); stat's count also holds threads that have exited,
 * which schedstat's do not, so the bench's long-lived server is where the precise count fits.
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return null;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6;
  } catch {
    // a thread that ended between the listing and its read, or no schedstat: the coarse count
  }
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
