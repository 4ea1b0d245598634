import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The umask every process that writes into the data directory runs with (0600 files, 0700
 * folders): it holds the SQLite database, the master key, the legacy store (tenant keys in plain
 * text) and demo.json (passwords and agent keys), none of which anyone but the owner may read.
 */
export const PRIVATE_UMASK = 0o077;

export type Tightened = { path: string; from: number; to: number };

/**
 * Creates the data directory 0700, or tightens an existing one to 0700, and strips group and other
 * permissions from everything directly inside it (0644 → 0600). Returns what it changed, for the
 * log. Not recursive, and never through a symlink inside it: the folder's own 0700 already closes everything
 * below it, and a misconfigured SIGNPOST_DATA_DIR must not send a chmod across the disk.
 */
export function tightenDataDir(dir: string): Tightened[] {
  const changed: Tightened[] = [];
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tighten = (path: string, target: (mode: number) => number, follow = false) => {
    const stat = follow ? statSync(path) : lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const from = stat.mode & 0o777;
    const to = target(from);
    if (to === from) return;
    chmodSync(path, to);
    changed.push({ path, from, to });
  };
  tighten(dir, () => 0o700, true); // the folder the operator named, even through a symlink
  // Owner bits stay as they are (a read-only key stays read-only); group and other go.
  for (const entry of readdirSync(dir)) tighten(join(dir, entry), (mode) => mode & ~PRIVATE_UMASK);
  return changed;
}
