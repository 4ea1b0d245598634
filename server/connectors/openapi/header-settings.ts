import type { ConnectorSetting } from "../sdk/define-connector";
import type { ApiOperation } from "./api-operations";
import { formFieldName } from "./schema-form-fields";

const PROTOCOL_HEADERS = ["accept", "content-type", "authorization", "content-length", "host"];

/** A header every request of a system carries, set once by an admin: a connector setting. */
export interface HeaderSetting extends ConnectorSetting {
  /** The header as the document names it (`ApiIntegrationCode`). */
  header: string;
}

/**
 * Header parameters the document requires on every operation with no value of its own (Autotask's
 * `ApiIntegrationCode` and `UserName`; credentials were made secrets before this): a property of
 * the tenant's account, not of one request, so each becomes a connector setting named after the
 * header (snake case) that an admin sets once and every request sends. The parameters leave the
 * operations, so no form asks for them. A header some operation leaves optional, or gives a
 * default or a single allowed value, stays what it is.
 */
export function headerSettings(operations: ApiOperation[]): {
  operations: ApiOperation[];
  settings: HeaderSetting[];
} {
  if (!operations.length) return { operations, settings: [] };
  const everywhere = new Map<string, { header: string; description: string }>();
  for (const p of operations[0]?.parameters ?? [])
    if (
      p.in === "header" &&
      p.required &&
      p.schema.default === undefined &&
      p.schema.enum?.length !== 1 &&
      // What the HTTP client itself sets (OpenAPI says such parameters are ignored): never a setting.
      !PROTOCOL_HEADERS.includes(p.name.toLowerCase())
    )
      everywhere.set(p.name.toLowerCase(), { header: p.name, description: p.description });
  for (const op of operations.slice(1))
    for (const key of [...everywhere.keys()])
      if (
        !op.parameters.some(
          (p) =>
            p.in === "header" &&
            p.required &&
            p.name.toLowerCase() === key &&
            p.schema.default === undefined &&
            p.schema.enum?.length !== 1,
        )
      )
        everywhere.delete(key);
  if (!everywhere.size) return { operations, settings: [] };
  const taken = new Set(["base_url", "enabled"]);
  const settings = [...everywhere.values()].slice(0, 10).map(({ header, description }) => {
    const name = formFieldName(header, taken).slice(0, 40);
    taken.add(name);
    return {
      name,
      header,
      description:
        `sent as the ${header} header with every request${description ? `: ${description}` : ""}`.slice(
          0,
          300,
        ),
    };
  });
  const headers = new Set(settings.map((s) => s.header.toLowerCase()));
  return {
    operations: operations.map((op) => ({
      ...op,
      parameters: op.parameters.filter((p) => !(p.in === "header" && headers.has(p.name.toLowerCase()))),
    })),
    settings,
  };
}
