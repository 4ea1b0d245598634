// A small stand-in for the system this connector talks to, so the connector runs and its tests
// pass before the real one is wired up: `node --import tsx dev-system.ts` serves it on a free
// port (or EXAMPLE_DEV_PORT) and prints its address. Replace the adapter's paths with your
// system's; delete this file then.
import { createServer, type Server } from "node:http";

interface Account {
  id: string;
  name: string;
  status: "active" | "closed";
  notes: Array<{ id: string; text: string; reference: string }>;
}

/** Starts the stand-in; resolves with its URL once it listens. `apiKey` is what it accepts. */
export async function startExampleDevSystem(
  options: { port?: number; apiKey?: string } = {},
): Promise<{ url: string; server: Server; accounts: Account[] }> {
  const apiKey = options.apiKey ?? "dev-key";
  const accounts: Account[] = Array.from({ length: 12 }, (_, i) => ({
    id: `example_${i + 1}`,
    name: `Account ${i + 1}`,
    status: i % 5 === 4 ? "closed" : "active",
    notes: [],
  }));
  const byReference = new Map<string, { id: string; text: string; reference: string }>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/health") return send(200, { ok: true });
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return send(401, { error: { code: "unauthorized", message: "bad key" } });
    const parts = url.pathname.split("/").filter(Boolean);
    if (req.method === "GET" && url.pathname === "/v1/health") return send(200, { ok: true });
    if (req.method === "GET" && parts.length === 2 && parts[1] === "accounts") {
      const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
      const data = accounts.slice((page - 1) * 5, page * 5).map(({ notes, ...a }) => a);
      return send(200, {
        data,
        page,
        total: accounts.length,
        next_page: page * 5 < accounts.length ? page + 1 : null,
      });
    }
    const account = parts[1] === "accounts" ? accounts.find((a) => a.id === parts[2]) : undefined;
    if (parts[1] === "accounts" && !account)
      return send(404, { error: { code: "not_found", message: "no account" } });
    if (req.method === "GET" && parts.length === 3 && account) return send(200, account);
    if (req.method === "POST" && parts.length === 4 && parts[3] === "notes" && account) {
      const key = String(req.headers["idempotency-key"] ?? "");
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => {
        // The same key answers with the first note: a retried request cannot add a second one.
        const earlier = byReference.get(key);
        if (earlier) return send(200, earlier);
        const text = String((JSON.parse(raw || "{}") as { text?: unknown }).text ?? "");
        const note = { id: `note_${byReference.size + 1}`, text, reference: key };
        if (key) byReference.set(key, note);
        account.notes.push(note);
        send(201, note);
      });
      return;
    }
    send(404, { error: { code: "not_found", message: "no such path" } });
  });
  await new Promise<void>((ok) => server.listen(options.port ?? 0, "127.0.0.1", ok));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server, accounts };
}

if (process.argv[1]?.endsWith("dev-system.ts")) {
  const port = Number(process.env.EXAMPLE_DEV_PORT ?? "0");
  startExampleDevSystem({ port }).then(({ url }) =>
    process.stdout.write(`dev system on ${url} (key: dev-key)\n`),
  );
}
