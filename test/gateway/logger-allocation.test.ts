import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runLogLineProbe } from "@/scripts/log-line-probe";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Every request of `serve` writes an access line, so what one line allocates is paid on every
 * call (and again in the collector's threads). pino 10's path redaction parsed its paths anew for
 * each field of each line: ~55 KB per access line; the card scan split every digit run of the
 * request id (~5 KB) though no run that short holds a card. Counted in bytes, not timed: a young
 * generation larger than the lines need, so nothing is collected while they are counted (checked).
 */
describe("a log line's allocations", () => {
  it("an MCP tool call's access line allocates under 14 KB", () => {
    const { bytes, gcs } = runLogLineProbe(root, {
      lines: 0,
      flags: ["--min-semi-space-size=128", "--max-semi-space-size=128"],
    });
    expect(gcs).toBe(0);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(14_000);
  }, 30_000);
});
