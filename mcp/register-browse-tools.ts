import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { BrowseBackend } from "@/server/browse/browse-backend";
import { type BrowsePage, navigate, search, submit } from "@/server/browse/browse-pages";
import { BROWSE_ROUTES } from "@/server/browse/browse-routes";
import { BROWSE_SCHEMES } from "@/server/browse/parse-browse-uri";
import { compactSchema } from "./compact-schema";
import { pageOutputSchema } from "./outcome-output";

const compactPage = compactSchema(pageOutputSchema);

const uriField = z
  .string()
  .min(3)
  .max(1000)
  .describe("A scheme://path URI from a page link, e.g. shop://orders or helpdesk://ticket/tkt_1");

const fieldValue = z.union([
  z.string().max(2000),
  z.number(),
  z.boolean(),
  z.null(),
  z
    .array(
      z.union([
        z.string().max(2000),
        z.number(),
        z.record(z.string(), z.union([z.string().max(2000), z.number(), z.boolean()])),
      ]),
    )
    .max(50),
]);

export const searchInput = z
  .object({
    query: z
      .string()
      .min(1)
      .max(200)
      .describe("Words, a name or an id: finds pages (e.g. 'orders') and records (e.g. 'Acme', 'mug')."),
    scheme: z.enum(BROWSE_SCHEMES).optional().describe("Limit to one scheme."),
  })
  .strict();

export const navigateInput = z.object({ uri: uriField }).strict();

export const submitInput = z
  .object({
    uri: uriField.describe("The form's uri, exactly as its form block shows it."),
    fields: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), fieldValue)
      .refine((value) => Object.keys(value).length <= 30, "at most 30 fields")
      .describe("Field values from the form block; send only those you set."),
  })
  .strict();

function pageResult(page: BrowsePage) {
  return {
    content: [{ type: "text" as const, text: page.markdown }],
    structuredContent: { uri: page.uri, title: page.title, outcome: page.outcome, links: page.links },
  };
}

/** The browse face: three tools over markdown pages, and every route as an MCP resource. */
export function registerBrowseTools(server: McpServer, backend: BrowseBackend): void {
  server.registerTool(
    "search",
    {
      title: "Search",
      description:
        "Find where to start: pages by what they hold ('orders', 'tickets assigned to me') and records by name or id, across shop://, helpdesk:// and more. Returns a markdown page of links.",
      inputSchema: compactSchema(searchInput),
      outputSchema: compactPage,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, scheme }) => pageResult(await search(backend, query, scheme)),
  );
  server.registerTool(
    "navigate",
    {
      title: "Navigate",
      description:
        "Open a scheme://path link: returns a markdown page with data, links to details and the actions possible now, or a form block on form pages. Start at signpost://start.",
      inputSchema: compactSchema(navigateInput),
      outputSchema: compactPage,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ uri }) => pageResult(await navigate(backend, uri)),
  );
  server.registerTool(
    "submit",
    {
      title: "Submit",
      description:
        "Submit a form shown by navigate: the form's uri and its field values. Starts or advances the business action behind it; money and data changes stop at a confirmation a person approves.",
      inputSchema: compactSchema(submitInput),
      outputSchema: compactPage,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ uri, fields }) => pageResult(await submit(backend, uri, fields)),
  );

  // Hosts that attach resources can read the same pages: one resource (template) per route.
  for (const route of BROWSE_ROUTES) {
    const read = async (uri: URL) => {
      const page = await navigate(backend, uri.href);
      return { contents: [{ uri: page.uri, mimeType: "text/markdown", text: page.markdown }] };
    };
    const name = route.pattern.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "");
    if (route.pattern.includes("{")) {
      server.registerResource(
        name,
        new ResourceTemplate(route.pattern, { list: undefined }),
        { title: route.title, description: route.description, mimeType: "text/markdown" },
        read,
      );
    } else {
      server.registerResource(
        name,
        route.pattern,
        { title: route.title, description: route.description, mimeType: "text/markdown" },
        read,
      );
    }
  }
}
