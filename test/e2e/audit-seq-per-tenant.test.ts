import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";
import { type Agent, connectAgent } from "./helpers/mcp-agent";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

/**
 * Issue 8, "Smaller": audit sequence numbers were shared across tenants, so one tenant's monitor
 * skipped the numbers of another tenant's calls, revealing its activity. Through the running app:
 * real MCP agents of two tenants busy at the same time, acme's support watching the live monitor
 * stream and the audit API, globex's person watching her own stream.
 */
describeEachProvider(
  "audit numbers are the tenant's own, through the console stream and API (%s)",
  (provider) => {
    let app: SignpostApp;
    let database: TestDatabase | undefined;
    const agents: Agent[] = [];

    beforeAll(async () => {
      if (provider === "postgres") {
        database = await createTestDatabase("postgres");
        await database.db.$disconnect();
      }
      app = await startSignpostApp({ databaseUrl: database?.url });
    }, 360_000);
    afterAll(async () => {
      await Promise.allSettled(agents.map((a) => a.close()));
      await app?.stop();
      await database?.drop();
    }, 60_000);

    async function signIn(email: string): Promise<string> {
      const res = await fetch(`${app.url}/api/auth/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email, password: app.password }),
      });
      expect(res.status).toBe(200);
      return /sp_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")?.[0] as string;
    }

    async function agentOf(email: string): Promise<Agent> {
      const key = app.demo.agents.find((a) => a.user === email)?.key as string;
      const agent = await connectAgent(app.url, key);
      agents.push(agent);
      return agent;
    }

    type StreamEvent = { id: number; data: Record<string, unknown> & { seq: number; operation: string } };

    /** Opens the monitor stream, reads its resume comment and `count` events, then hangs up. */
    async function readStream(cookie: string, query: string, count: number) {
      const controller = new AbortController();
      const res = await fetch(`${app.url}/api/console/stream${query}`, {
        headers: { cookie },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      const events: StreamEvent[] = [];
      let resumeFrom: number | undefined;
      let buffer = "";
      try {
        while (resumeFrom === undefined || events.length < count) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let cut = buffer.indexOf("\n\n");
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const resume = /^: resume from (\d+)$/m.exec(block)?.[1];
            if (resume !== undefined) resumeFrom = Number(resume);
            const id = /^id: (\d+)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (id && data) events.push({ id: Number(id), data: JSON.parse(data) });
            cut = buffer.indexOf("\n\n");
          }
        }
      } finally {
        controller.abort();
      }
      return { resumeFrom: resumeFrom as number, events };
    }

    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

    it("acme's monitor sees 1, 2, 3… gapless while globex agents are busy in between; globex learns nothing of acme's count", async () => {
      const sam = await signIn("sam@acme.test"); // acme support: the whole tenant's monitor
      const gina = await signIn("gina@globex.test"); // globex: her own rows
      const acmeAgent = await agentOf("alice@acme.test");
      const globexAgent = await agentOf("gina@globex.test");
      const search = (agent: Agent, query: string) => agent.call("search_capabilities", { query });

      // Both tenants' agents at once, globex busier: under one shared counter acme's numbers would
      // skip every globex call.
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          search(acmeAgent, `acme refund ${round}`),
          search(globexAgent, `globex checkout ${round}`),
          search(globexAgent, `globex ticket ${round}`),
        ]);
        await search(acmeAgent, `acme ticket ${round}`);
      }

      const db = createDb(app.databaseUrl);
      try {
        const acmeRows = await db.auditEvent.count({ where: { tenantId: "acme" } });
        const globexRows = await db.auditEvent.count({ where: { tenantId: "globex" } });
        expect(acmeRows).toBeGreaterThanOrEqual(10);
        expect(globexRows).toBeGreaterThanOrEqual(10);

        // The audit API (the monitor's backfill): exactly 1…n, newest first, no internal id.
        const api = await fetch(`${app.url}/api/console/audit?limit=1000`, { headers: { cookie: sam } });
        const { events } = (await api.json()) as { events: Record<string, unknown>[] };
        expect(events.map((e) => e.seq)).toEqual(upTo(acmeRows).reverse());
        for (const event of events) expect(Object.keys(event)).not.toContain("id");
        expect(JSON.stringify(events)).not.toContain("globex");

        // The live stream from the start: 1, 2, 3… in order, each SSE id its seq.
        const acme = await readStream(sam, "?after=0", acmeRows);
        expect(acme.events.map((e) => e.id)).toEqual(upTo(acmeRows));
        expect(acme.events.every((e) => e.data.seq === e.id && !("id" in e.data))).toBe(true);
        expect(JSON.stringify(acme.events)).not.toContain("globex");
        // Without a cursor it starts at acme's own newest number.
        expect((await readStream(sam, "", 0)).resumeFrom).toBe(acmeRows);

        // Gina's numbers count globex's rows only: 1…m, whatever acme did in between.
        const ginas = await readStream(gina, "?after=0", globexRows);
        expect(ginas.events.map((e) => e.id)).toEqual(upTo(globexRows));
        expect(JSON.stringify(ginas.events)).not.toContain("acme");
        const before = (await readStream(gina, "", 0)).resumeFrom;
        expect(before).toBe(globexRows);
        for (let i = 0; i < 4; i++) await search(acmeAgent, `acme busy ${i}`);
        expect((await readStream(gina, "", 0)).resumeFrom).toBe(before);
        await search(globexAgent, "globex after acme");
        expect((await readStream(gina, "", 0)).resumeFrom).toBe(before + 1);
        // A cursor at acme's (higher) number is just a position in globex's rows: nothing of acme's.
        const acmeNow = await db.auditEvent.count({ where: { tenantId: "acme" } });
        const ahead = await readStream(gina, `?after=${acmeNow}`, 0);
        expect(ahead.resumeFrom).toBe(acmeNow);
        expect(ahead.events).toEqual([]);
      } finally {
        await db.$disconnect();
      }
    }, 180_000);
  },
);
