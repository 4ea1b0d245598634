import { describe, expect, it } from "vitest";
import { parseAuditQuery } from "@/app/_lib/audit-query";

describe("monitor query parameters", () => {
  const parse = (query: string) => parseAuditQuery(new URLSearchParams(query));

  it("accepts sequence numbers the audit table can hold", () => {
    expect(parse("after=0&before=2147483647&limit=50")).toMatchObject({
      ok: true,
      after: 0,
      before: 2_147_483_647,
      limit: 50,
    });
  });

  it("refuses a cursor past the 32-bit seq column with a typed message, not a database error", () => {
    expect(parse("after=3000000000")).toEqual({ ok: false, message: "Invalid after." });
    expect(parse("before=-1")).toEqual({ ok: false, message: "Invalid before." });
    expect(parse("limit=1.5")).toEqual({ ok: false, message: "Invalid limit." });
  });
});
