import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpNodeRoute } from "@/mcp/mcp-node-route";
import { createMcpWorld, type McpWorld } from "./mcp-world";

/** The status line of a raw HTTP/1.1 exchange: a Host header no client library would send. */
function statusOf(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let out = "";
    socket.on("data", (d) => {
      out += d.toString();
    });
    socket.on("end", () => resolve(out.split("\r\n")[0] ?? ""));
    socket.on("error", () => resolve(out.split("\r\n")[0] ?? ""));
  });
}

/**
 * `/mcp`'s URL is built from the Host header: one that is no host ("local host", a port past
 * 65535) is a client's error, answered 4xx by serve's route, never a 500 with an error logged.
 */
describe("/mcp: a Host header that is no host", () => {
  let w: McpWorld;
  let server: Server;
  let nodePort = 0;
  const thrown: unknown[] = [];
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    const route = mcpNodeRoute(() => w.mcp.answer);
    server = createServer((req, res) => {
      route(req, res)
        .then((answered) => {
          if (!answered) res.writeHead(404).end();
        })
        .catch((error) => {
          thrown.push(error);
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    nodePort = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await w.close();
  });

  const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  it.each(["localhost:99999", "local host", "[::1"])("Host %s is a 4xx on serve's route", async (host) => {
    const request = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer ${w.keys.alice}\r\nContent-Length: ${list.length}\r\nConnection: close\r\n\r\n${list}`;
    expect(await statusOf(nodePort, request)).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(thrown).toEqual([]);
  });
});
