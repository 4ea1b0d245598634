import { describe, expect, it } from "vitest";
import { leftOutByStatus } from "@/server/browse/left-out-by-status";
import type { RouteDefinition } from "@/server/connectors/sdk/define-route";
import { parseBrowseUri } from "@/server/connectors/sdk/parse-browse-uri";

/**
 * The "not included" line of a status-filtered listing counts the other statuses with calls to
 * the system: an imported enum can declare hundreds, so one navigate must stay a few calls.
 */
describe("a status filter's 'not included' line is bounded work", () => {
  const run = async (n: number) => {
    const statuses = Array.from({ length: n }, (_, i) => `s${i}`);
    const seen = { renders: 0, inFlight: 0, maxInFlight: 0 };
    const route = {
      pattern: "shop://things",
      title: "Things",
      filters: { status: statuses },
      async render() {
        seen.renders++;
        seen.inFlight++;
        seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
        await new Promise((r) => setTimeout(r, 5));
        seen.inFlight--;
        return { title: "Things", outcome: "applied", rows: 1, total: 3, markdown: "" };
      },
    } as unknown as RouteDefinition;
    const uri = parseBrowseUri("shop://things?status=s0");
    if (!uri.ok) throw new Error("uri");
    const backend = { authorize: async () => ({ decision: "allow" }), redact: (t: string) => t } as never;
    const line = await leftOutByStatus(
      route,
      { uri: uri.value, params: {} } as never,
      { title: "", outcome: "applied", markdown: "" } as never,
      backend,
    );
    return { line, ...seen };
  };

  it("a few statuses are counted, two at a time", async () => {
    const r = await run(5);
    expect(r.line).toBe("not included: s1 (3), s2 (3), s3 (3), s4 (3)");
    expect(r.renders).toBe(4);
    expect(r.maxInFlight).toBeLessThanOrEqual(2);
  });

  it("hundreds of statuses are named, the first few, and never counted", async () => {
    const r = await run(200);
    expect(r.renders).toBe(0);
    expect(r.line).toBe("other values: s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 and 189 more");
  });
});
