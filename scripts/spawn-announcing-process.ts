// A bench's child process that announces where it listens: it prints `{"url":"http://…"}` on
// stdout once it is up (the demo legacy service, the reference proxy).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Runs `script` (TypeScript, through tsx) with `args` and `env`; resolves once it has said its URL. */
export async function spawnAnnouncingProcess(
  script: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv; cwd?: string; name: string },
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", tsx, script, ...(options.args ?? [])], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`${options.name} exited with ${code}`)));
  });
  // Keep reading what it prints later, so a full pipe never stalls it.
  child.stdout?.resume();
  return { child, url };
}
