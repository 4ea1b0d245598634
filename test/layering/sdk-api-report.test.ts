import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SDK_API_REPORT, sdkApiReport } from "../../scripts/sdk-api-report";

describe("the connector SDK's public surface", () => {
  it("is what server/connectors/sdk/api-report.md says (after a deliberate change: npm run sdk:api-report)", () => {
    const fresh = sdkApiReport();
    // The report names every export: a sanity floor, so an empty or broken report cannot pass.
    for (const name of ["defineConnector", "defineCapability", "createHttpClient", "SystemUnavailableError"])
      expect(fresh).toContain(`## ${name}\n`);
    expect(fresh, "the SDK's exports changed: run `npm run sdk:api-report` and review the diff").toBe(
      readFileSync(SDK_API_REPORT, "utf8"),
    );
  }, 120_000);
});
