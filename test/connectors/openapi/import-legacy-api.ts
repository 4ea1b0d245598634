import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { McpWorld } from "../../mcp/mcp-world";

/**
 * Imports the world's legacy `/openapi.json` into acme as `legacy://` (its bearer key set), and
 * lets `role` start the writes whose form URIs match `grants`: a generated connector for tests
 * that cover every capability, `api_request` included.
 */
export async function importLegacyApi(
  w: McpWorld,
  options: {
    baseUrl?: string;
    grants?: Array<{ role: "admin" | "support" | "member"; pattern: string }>;
  } = {},
): Promise<void> {
  const doc = await fetch(`${w.legacy.url}/openapi.json`).then((r) => r.text());
  const imported = await importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: doc,
      id: "legacy",
      baseUrl: options.baseUrl ?? w.legacy.url,
      readRoles: ["admin", "support"],
      secrets: { bearerAuth: w.legacy.apiKeys.acme },
      self: { origins: [w.url], ports: [] },
    },
    { apply: true },
  );
  if (!imported.ok) throw new Error(imported.message);
  for (const { role, pattern } of options.grants ?? [])
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "role",
        subjectId: role,
        verb: "start",
        pattern,
        decision: "allow",
        position: 0,
      },
    });
}
