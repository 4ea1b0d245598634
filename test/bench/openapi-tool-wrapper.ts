import SwaggerParser from "@apidevtools/swagger-parser";

interface WrappedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * What the naive MCP server would list: one tool per OpenAPI operation, its parameters and
 * request body flattened into one input schema (the "wrap every endpoint" anti-pattern the
 * articles measure against). Admin/ops endpoints are wrapped too, as a generator would.
 */
export async function wrapOpenApiAsTools(document: unknown): Promise<WrappedTool[]> {
  const api = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as {
    paths: Record<string, Record<string, JsonObject>>;
  };
  const tools: WrappedTool[] = [];
  for (const [path, item] of Object.entries(api.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const properties: JsonObject = {};
      const required: string[] = [];
      const params = [
        ...((item.parameters as unknown as JsonObject[]) ?? []),
        ...((op.parameters as JsonObject[]) ?? []),
      ];
      for (const param of params) {
        const name = String(param.name);
        properties[name] = {
          ...((param.schema as JsonObject) ?? { type: "string" }),
          ...(param.description ? { description: param.description } : {}),
        };
        if (param.required) required.push(name);
      }
      const body = (op.requestBody as JsonObject | undefined)?.content as
        | Record<string, JsonObject>
        | undefined;
      const bodySchema = body?.["application/json"]?.schema as JsonObject | undefined;
      if (bodySchema) {
        properties.body = bodySchema;
        if ((op.requestBody as JsonObject).required) required.push("body");
      }
      const name =
        typeof op.operationId === "string"
          ? op.operationId
          : `${method}_${path
              .replace(/[{}]/g, "")
              .replace(/[^A-Za-z0-9]+/g, "_")
              .replace(/^_|_$/g, "")}`;
      tools.push({
        name,
        description:
          [op.summary, op.description].filter(Boolean).join(" — ") || `${method.toUpperCase()} ${path}`,
        inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
      });
    }
  }
  return tools;
}
