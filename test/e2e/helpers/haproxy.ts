import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./signpost-app";

/** The balancer configuration Signpost ships (docs/haproxy.cfg), run unchanged by the tests. */
export const shippedHaproxyConfig = fileURLToPath(new URL("../../../docs/haproxy.cfg", import.meta.url));

/** Debian's HAProxy (`apt-get install -y haproxy`); override with HAPROXY_PATH. */
export const haproxyPath = process.env.HAPROXY_PATH ?? "/usr/sbin/haproxy";

export function haproxyAvailable(): boolean {
  try {
    accessSync(haproxyPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface RunningHaproxy {
  url: string;
  /** Each server's operational state from the runtime API: name → "UP" | "DOWN" | …. */
  serverStates(): Promise<Record<string, string>>;
  output(): string;
  stop(): Promise<void>;
}

/** One command to HAProxy's runtime API (its stats socket); resolves with the whole answer. */
function runtimeCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const connection = createConnection(socket, () => connection.end(`${command}\n`));
    connection.on("data", (c: Buffer) => chunks.push(c));
    connection.on("end", () => resolve(Buffer.concat(chunks).toString()));
    connection.on("error", reject);
  });
}

/**
 * Starts HAProxy in the foreground with the shipped configuration in front of `servers`
 * (host:port, as SIGNPOST_1, SIGNPOST_2, … in the file), on a free port with its own runtime
 * socket, and waits until it accepts connections.
 */
export async function startHaproxy(servers: string[]): Promise<RunningHaproxy> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "signpost-haproxy-"));
  const socket = join(dir, "admin.sock");
  const chunks: string[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SIGNPOST_HAPROXY_BIND: `127.0.0.1:${port}`,
    SIGNPOST_HAPROXY_SOCKET: socket,
  };
  servers.forEach((server, i) => {
    env[`SIGNPOST_${i + 1}`] = server;
  });
  const child: ChildProcess = spawn(haproxyPath, ["-db", "-f", shippedHaproxyConfig], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => chunks.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const output = () => chunks.join("");
  const running: RunningHaproxy = {
    url: `http://127.0.0.1:${port}`,
    output,
    async serverStates() {
      // "show servers state": one line per server; field 4 is its name, field 6 srv_op_state
      // (0 stopped/DOWN, 1 starting, 2 running/UP, 3 stopping).
      const text = await runtimeCommand(socket, "show servers state signpost");
      const names = ["DOWN", "STARTING", "UP", "STOPPING"];
      const states: Record<string, string> = {};
      for (const line of text.split("\n")) {
        if (!line.trim() || line.startsWith("#") || /^\d+$/.test(line.trim())) continue;
        const fields = line.trim().split(/\s+/);
        if (fields[3]) states[fields[3]] = names[Number(fields[5])] ?? `state ${fields[5]}`;
      }
      return states;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output()}`);
    try {
      await runtimeCommand(socket, "show info");
      return running;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`haproxy did not start:\n${output()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
