import { defineConnector } from "../sdk/define-connector";
import { escapeText, link } from "../sdk/markdown";
import { SCHEME_PATTERN } from "../sdk/parse-browse-uri";
import { apiRequest, type OpenApiRouter } from "./api-request-capability";
import { OPENAPI_CONNECTOR_ID } from "./api-request-names";
import { isOpenApiAdapter } from "./openapi-adapter";

/**
 * The built-in part of OpenAPI import: the one generic write capability every imported system's
 * forms start (so the capability registry stays the same for every tenant), and a page listing
 * the systems this tenant imported. Its adapter opens the imported connectors' adapters for the
 * same tenant; it has no system, secrets or address of its own.
 */
export const openapiConnector = defineConnector<OpenApiRouter>({
  id: OPENAPI_CONNECTOR_ID,
  title: "Imported systems",
  scheme: OPENAPI_CONNECTOR_ID,
  description: "Systems this tenant connected from an OpenAPI document, and their start pages.",
  secrets: [],
  system: false,
  createAdapter: ({ adapterOf }) => ({
    async connector(id) {
      if (!adapterOf || !SCHEME_PATTERN.test(id) || id === OPENAPI_CONNECTOR_ID) return null;
      const adapter = await adapterOf(id);
      return isOpenApiAdapter(adapter) ? adapter : null;
    },
  }),
  healthPath: "/",
  checkConnection: async () => ({ ok: true, status: 200 }),
  capabilities: [apiRequest],
  entities: [],
  routes: [
    {
      pattern: "openapi://systems",
      title: "Imported systems",
      description: "The systems connected from an OpenAPI document, with their listings",
      keywords: ["imported", "systems", "openapi", "apis", "connected"],
      startPoint: true,
      async render(_match, backend) {
        const imported = (await backend.connectors()).filter((c) => c.defaultAccess);
        if (!imported.length)
          return {
            title: "Imported systems",
            outcome: "applied",
            markdown:
              "No system was imported yet: an admin runs `npx signpost connect openapi <document> --id <id> --base-url <url>`, or uses Add a system on the console's Connectors page.",
          };
        const sections = imported.map((c) => {
          const starts = c.routes.filter((r) => r.startPoint).slice(0, 12);
          return `## ${escapeText(c.title)} (\`${c.scheme}://\`)\n\n${c.description}\n\n${starts.map((r) => `- ${link(r.title, r.pattern)}`).join("\n") || "_(no listing without parameters)_"}`;
        });
        return { title: "Imported systems", outcome: "applied", markdown: sections.join("\n\n") };
      },
    },
  ],
});
