import {
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { compactSchema } from "./compact-schema";
import { CONFIRM_APP_URI, DECIDE_APPROVAL_TOOL, renderConfirmAppHtml } from "./confirm-app-html";
import type { GatewayPort } from "./gateway-port";
import { outcomeOutputSchema, renderOutcomeText } from "./outcome-output";

export const decideApprovalInput = z
  .object({
    action_id: z.string().min(1).max(100).describe("The action shown on the confirmation screen."),
    version: z.number().int().min(1).describe("The version the person saw."),
    decision: z.enum(["approve", "reject"]),
    approval_token: z
      .string()
      .min(16)
      .max(200)
      .describe("The single-use token the screen received in the result _meta."),
    reason: z.string().max(500).optional(),
  })
  .strict();

/**
 * The confirmation screen as an MCP App, and the app-only tool its buttons call. The tool is
 * hidden from the model (`visibility: ["app"]`) but that is a hint, not a guard: what makes the
 * call a person's decision is the token, which only ever travelled in result `_meta`.
 */
export function registerConfirmApp<Ctx>(server: McpServer, gateway: GatewayPort<Ctx>, context: Ctx): void {
  registerAppResource(
    server,
    "Signpost confirmation",
    CONFIRM_APP_URI,
    {
      description:
        "Shows what an action will do (items, amount, address, payment; refund; assignee) with Approve and Reject.",
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    },
    async () => ({
      contents: [{ uri: CONFIRM_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: renderConfirmAppHtml() }],
    }),
  );

  registerAppTool(
    server,
    DECIDE_APPROVAL_TOOL,
    {
      title: "Approve or reject (confirmation screen)",
      description: "Used by the confirmation screen only. Requires the screen's single-use approval token.",
      inputSchema: compactSchema(decideApprovalInput),
      outputSchema: compactSchema(outcomeOutputSchema),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      _meta: { ui: { resourceUri: CONFIRM_APP_URI, visibility: ["app"] } },
    },
    async (args) => {
      const outcome = await gateway.decideWithToken(context, args);
      return { content: [{ type: "text", text: renderOutcomeText(outcome) }], structuredContent: outcome };
    },
  );
}
