import {
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  ResourceTemplate,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { visibleRoutes } from "@/server/browse/browse-routes";
import { navigate } from "@/server/browse/navigate";
import type { BrowsePage } from "@/server/browse/render-page";
import { search } from "@/server/browse/search";
import { submit } from "@/server/browse/submit";
import { connectors } from "@/server/connectors/connector-registry";
import type { BrowseBackend, BrowseVerb } from "@/server/connectors/sdk/browse-backend";
import { resourceName } from "@/server/connectors/sdk/define-route";
import { code, escapeText, link } from "@/server/connectors/sdk/markdown";
import type { ValidationError } from "@/server/connectors/sdk/outcome";
import { SCHEME_PATTERN } from "@/server/connectors/sdk/parse-browse-uri";
import { argumentBoundsErrors, auditCopyOfOversized } from "@/server/gateway/argument-bounds";
import { zodErrors } from "@/server/gateway/validation-errors";
import { approvalRequest, type BrowseApprovals, resumedSubmit } from "./browse-approval-round";
import { asksForChange, CHANGE_REQUEST_LINE } from "./change-request-line";
import { compactSchema, type RawArguments } from "./compact-schema";
import { pageOutputSchema } from "./outcome-output";

const compactPage = compactSchema(pageOutputSchema);

const uriField = z.string().min(3).max(1000);

// A form's object and array fields take JSON: an object or a list as it is, or its JSON text.
// Size and depth are the gateway's argument bounds; the form checks each value against its schema.
const fieldValue = z.union([
  z.string().max(20_000),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()).max(100),
  z.record(z.string().max(200), z.unknown()),
]);

export const searchInput = z
  .object({
    query: z.string().min(1).max(200),
    // A name, not an enum: schemes come from the connectors, and the tool list stays the same
    // however many are connected. An unknown one is a not-found page naming the known ones.
    scheme: z.string().regex(SCHEME_PATTERN).optional(),
  })
  .strict();

export const navigateInput = z.object({ uri: uriField }).strict();

export const submitInput = z
  .object({
    uri: uriField,
    fields: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), fieldValue)
      .refine((value) => Object.keys(value).length <= 30, "at most 30 fields")
      .describe("As the form names them; objects and lists as JSON"),
  })
  .strict();

/** Longest uri a refusal page (and its audit target) repeats from arguments that failed validation. */
const MAX_URI = 200;

type ParsedArguments<T> = { data: T } | { errors: ValidationError[]; audited: RawArguments };

/**
 * The gateway's size and depth bounds first (a 20,000-deep array or a 5 MB string never reaches
 * zod or the audit writer, whose row gets a small copy), then the tool's strict schema.
 */
function parseArguments<S extends z.ZodType>(schema: S, args: RawArguments): ParsedArguments<z.output<S>> {
  const outOfBounds = argumentBoundsErrors(args);
  if (outOfBounds.length) return { errors: outOfBounds, audited: auditCopyOfOversized(args) as RawArguments };
  const parsed = schema.safeParse(args);
  return parsed.success ? { data: parsed.data } : { errors: zodErrors(parsed.error), audited: args };
}

/**
 * Arguments that fail the tool's bounds or schema: a `rejected` page that names each field,
 * audited like every browse call (`browse.searched` / `browse.navigated` / `browse.submitted`).
 * The SDK lets them through (see compactSchema's `validation: "handler"`) so that this row exists.
 */
async function invalidArgumentsPage(
  backend: BrowseBackend,
  verb: BrowseVerb,
  args: RawArguments,
  refused: Exclude<ParsedArguments<unknown>, { data: unknown }>,
): Promise<BrowsePage> {
  const { errors } = refused;
  const message = `Invalid arguments: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`;
  const target =
    verb === "search"
      ? `search:${typeof args.scheme === "string" ? args.scheme.slice(0, 20) : "*"}`
      : typeof args.uri === "string"
        ? // Redacted before it is cut: a cut secret would no longer look like one.
          backend.redact(args.uri).slice(0, MAX_URI)
        : "(no uri)";
  await backend.record({
    verb,
    target,
    // As sent (or a small copy when too large): the audit writer redacts and bounds arguments.
    arguments: refused.audited,
    outcome: "rejected",
    message,
    latencyMs: 0,
  });
  const title = "Invalid arguments";
  const markdown = [
    `# ${title}`,
    "",
    `**rejected:** \`${verb}\` was not run: its arguments do not match its input schema.`,
    "Reason: `invalid_arguments`",
    "",
    ...errors.map((e) => `- ${code(e.field)} (${e.code}): ${escapeText(e.message)}`),
    "",
    `Call \`${verb}\` again with only the fields its input schema lists. ${link("Start", "signpost://start")}`,
    "",
  ].join("\n");
  // Field names are the agent's own keys: the page shows them redacted, like every browse page.
  return {
    uri: target,
    title,
    outcome: "rejected",
    markdown: backend.redact(markdown),
    links: ["signpost://start"],
  };
}

/**
 * One browse call as every face makes it: the tool's bounds and strict schema (a typed, audited
 * refusal when they fail), then the browse layer. The MCP tools and scripts both run this.
 */
export async function runBrowseTool(
  backend: BrowseBackend,
  verb: BrowseVerb,
  args: RawArguments,
): Promise<BrowsePage> {
  if (verb === "search") {
    const parsed = parseArguments(searchInput, args);
    if (!("data" in parsed)) return invalidArgumentsPage(backend, verb, args, parsed);
    return search(backend, parsed.data.query, parsed.data.scheme);
  }
  if (verb === "navigate") {
    const parsed = parseArguments(navigateInput, args);
    if (!("data" in parsed)) return invalidArgumentsPage(backend, verb, args, parsed);
    return navigate(backend, parsed.data.uri);
  }
  const parsed = parseArguments(submitInput, args);
  if (!("data" in parsed)) return invalidArgumentsPage(backend, verb, args, parsed);
  return submit(backend, parsed.data.uri, parsed.data.fields);
}

/**
 * A submit as the MCP tool makes it: a host that opens URLs for its person is asked to open the
 * approval screen where the submit left an action waiting on them, and its retry (carrying the
 * signed requestState) answers the action's page without submitting again. Arguments are checked
 * first, as every submit's: a wrong one never spends a round's state.
 */
async function submitTool(
  backend: BrowseBackend,
  args: RawArguments,
  ctx: ServerContext,
  approvals: BrowseApprovals,
): Promise<CallToolResult | InputRequiredResult> {
  const parsed = parseArguments(submitInput, args);
  if (!("data" in parsed)) return pageResult(await invalidArgumentsPage(backend, "submit", args, parsed));
  const rawState = ctx.mcpReq.requestState<string>();
  if (typeof rawState === "string" && rawState !== "")
    return pageResult(await resumedSubmit(backend, parsed.data.uri, rawState, ctx, approvals));
  const page = await submit(backend, parsed.data.uri, parsed.data.fields);
  return (await approvalRequest(page, ctx, approvals)) ?? pageResult(page);
}

/**
 * A page's "(or start_action …)" beside its forms, for a caller without the action face: review
 * 68 found a browse-only agent told to skip its search for a tool it does not have.
 */
const START_ACTION_HINT = / \(or start_action [^()]*\)/g;

function pageResult(page: BrowsePage, startsChanges = true) {
  const text = startsChanges ? page.markdown : page.markdown.replace(START_ACTION_HINT, "");
  return {
    content: [{ type: "text" as const, text }],
    structuredContent: { uri: page.uri, title: page.title, outcome: page.outcome, links: page.links },
  };
}

/** The browse face: three tools over markdown pages, and every route as an MCP resource. */
export function registerBrowseTools(
  server: McpServer,
  /**
   * The browse backend of the request a call came in; without `ctx`, of the one caller a server
   * that lists resources is built for (its routes are that caller's).
   */
  backendOf: (ctx?: ServerContext) => BrowseBackend,
  /**
   * `startsChanges`: the caller has the action face, so a search asking for a change names
   * start_action. `approvals`: a submit waiting on a person's approval keeps the call open on
   * hosts that open URLs (browse-approval-round.ts); absent, every host gets the page.
   */
  scope: { resources: boolean; startsChanges?: boolean; approvals?: BrowseApprovals } = { resources: true },
): void {
  server.registerTool(
    "search",
    {
      title: "Search",
      description: "Read or list records and pages: find them by words, name or id.",
      inputSchema: compactSchema(searchInput, { validation: "handler" }),
      outputSchema: compactPage,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args: RawArguments, ctx: ServerContext) => {
      const page = await runBrowseTool(backendOf(ctx), "search", args);
      const query = typeof args.query === "string" ? args.query : "";
      return pageResult(
        scope.startsChanges && page.outcome !== "rejected" && asksForChange(query)
          ? { ...page, markdown: `${CHANGE_REQUEST_LINE}\n\n${page.markdown}` }
          : page,
        scope.startsChanges,
      );
    },
  );
  server.registerTool(
    "navigate",
    {
      title: "Navigate",
      description: "Open a scheme:// link: a markdown page or form. Start: signpost://start",
      inputSchema: compactSchema(navigateInput, { validation: "handler" }),
      outputSchema: compactPage,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args: RawArguments, ctx: ServerContext) =>
      pageResult(await runBrowseTool(backendOf(ctx), "navigate", args), scope.startsChanges),
  );
  server.registerTool(
    "submit",
    {
      title: "Submit",
      description: "Submit a form; changes stop at a person's approval.",
      inputSchema: compactSchema(submitInput, { validation: "handler" }),
      outputSchema: compactPage,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args: RawArguments, ctx: ServerContext) =>
      scope.approvals
        ? submitTool(backendOf(ctx), args, ctx, scope.approvals)
        : pageResult(await runBrowseTool(backendOf(ctx), "submit", args), scope.startsChanges),
  );

  // Hosts that attach resources can read the same pages: one resource (template) per route of
  // the installed connectors this caller may see (config:// only for admins, as in navigate).
  // Imported connectors' pages (possibly thousands) are reached with navigate, not listed here.
  if (!scope.resources) return;
  const backend = backendOf();
  for (const route of visibleRoutes(backend, connectors())) {
    const read = async (uri: URL) => {
      const page = await navigate(backend, uri.href);
      return { contents: [{ uri: page.uri, mimeType: "text/markdown", text: page.markdown }] };
    };
    const name = resourceName(route.pattern);
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
