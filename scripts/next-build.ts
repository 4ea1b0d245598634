// The console's production build, shared by `npm start` and `npx signpost serve`: built when the
// sources changed (a content digest, not mtimes), once even when several instances start
// together on one checkout, its output logged as JSON lines unless a person watches a terminal.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { logger } from "@/server/logger";

export const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

const BUILD_INPUTS = ["app", "components", "mcp", "server", "public"];
const BUILD_FILES = [
  "next.config.ts",
  "package.json",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
  "instrumentation.ts",
];

/** A digest of everything `next build` reads: content, not mtimes, so a fresh clone or a
 * reinstall that regenerates identical files does not force a rebuild. */
function sourceDigest(): string {
  const hash = createHash("sha256");
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path === join(root, "server", "legacy")) continue; // a separate process, not bundled
        walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of BUILD_INPUTS) walk(join(root, dir));
  for (const file of BUILD_FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  for (const file of files.sort()) {
    hash.update(relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const digestFile = join(root, ".next", "signpost-source-digest");

function isBuildCurrent(digest: string): boolean {
  return (
    existsSync(join(root, ".next", "BUILD_ID")) &&
    existsSync(digestFile) &&
    readFileSync(digestFile, "utf8").trim() === digest
  );
}

// Two instances started together on a fresh checkout would both build into the one .next/
// (Next refuses the second build). One builds; the others wait for it, then reuse its output.
// The lock lives outside .next/, which `next build` wipes.
const buildLock = join(root, "node_modules", ".cache", "signpost-build.lock");

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  mkdirSync(dirname(buildLock), { recursive: true });
  try {
    writeFileSync(buildLock, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    const holder = Number(readFileSync(buildLock, "utf8"));
    if (holder && processAlive(holder)) return false;
    rmSync(buildLock, { force: true }); // left by a build that died
    return tryLock();
  }
}

/**
 * Runs a child process to completion. On a terminal its output goes straight to the person;
 * otherwise (a service manager, a container, a test) each line becomes a JSON log line, so the
 * process's whole output stays machine-readable.
 */
export function runLogged(
  label: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; tail: string[] }> {
  const tty = process.stdout.isTTY === true;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: tty ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    const tail: string[] = [];
    const onLine = (line: string) => {
      const text = line.trimEnd();
      if (!text) return;
      tail.push(text);
      if (tail.length > 60) tail.shift();
      logger.debug({ child: label }, text);
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = "";
      stream?.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        let end = buffer.indexOf("\n");
        while (end >= 0) {
          onLine(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          end = buffer.indexOf("\n");
        }
      });
      stream?.on("end", () => onLine(buffer));
    }
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, tail }));
  });
}

/** Builds the console unless the last build is of these sources. Throws when `next build` fails. */
export async function buildIfNeeded(): Promise<void> {
  const digest = sourceDigest();
  if (isBuildCurrent(digest)) return;
  let waited = false;
  while (!tryLock()) {
    if (!waited) logger.info("Another start is building the console; waiting for it…");
    waited = true;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  try {
    if (isBuildCurrent(digest)) return;
    const built = existsSync(join(root, ".next", "BUILD_ID"));
    logger.info(
      built
        ? "Sources changed since the last build: rebuilding the console…"
        : "Building the console (once)…",
    );
    const started = Date.now();
    const result = await runLogged(
      "next build",
      process.execPath,
      [require.resolve("next/dist/bin/next"), "build"],
      {
        env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      },
    );
    if (result.code !== 0) {
      logger.error({ output: result.tail }, "next build failed");
      throw new Error("next build failed");
    }
    writeFileSync(digestFile, `${digest}\n`);
    logger.info(
      { seconds: (Date.now() - started) / 1000 },
      `Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    rmSync(buildLock, { force: true });
  }
}
