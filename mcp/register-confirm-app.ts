import {
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { compactSchema } from "./compact-schema";
import { APPROVAL_STATUS_TOOL, CONFIRM_APP_URI, renderConfirmAppHtml } from "./confirm-app-html";
import type { GatewayPort } from "./gateway-port";
import { outcomeOutputSchema } from "./outcome-output";
import { renderOutcomeText } from "./outcome-text";

export const approvalStatusInput = z
  .object({ action_id: z.string().min(1).max(64).describe("The action shown on the confirmation screen.") })
  .strict();

/**
 * The confirmation screen as an MCP App: it shows the summary inside the host and an "Approve in
 * Signpost" button that opens the console's confirm page, where the person's own session is the
 * credential. Nothing here can approve — whatever reaches an MCP client may reach the model —
 * so the screen's only tool reads the approval's status (harmless to poll).
 */
export function registerConfirmApp<Ctx>(
  server: McpServer,
  gateway: GatewayPort<Ctx>,
  /** The caller of the request a call came in. */
  contextOf: (ctx: ServerContext) => Ctx,
  scope: { resources: boolean } = { resources: true },
): void {
  if (scope.resources)
    registerAppResource(
      server,
      "Signpost confirmation",
      CONFIRM_APP_URI,
      {
        description:
          "Shows what an action will do, exactly as the approval page does, and opens Signpost to approve it.",
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      },
      async () => ({
        contents: [{ uri: CONFIRM_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: renderConfirmAppHtml() }],
      }),
    );

  registerAppTool(
    server,
    APPROVAL_STATUS_TOOL,
    {
      title: "Approval status (confirmation screen)",
      description: "Used by the confirmation screen: whether the person approved or rejected, and who.",
      // Listed strict, checked by the gateway: a wrong argument is a typed, audited refusal
      // (the SDK's own check echoed a 100,000-key argument back as 2 MB and audited nothing).
      inputSchema: compactSchema(approvalStatusInput, { validation: "handler" }),
      outputSchema: compactSchema(outcomeOutputSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: CONFIRM_APP_URI, visibility: ["app"] } },
    },
    async (args: Record<string, unknown>, ctx: ServerContext) => {
      const outcome = await gateway.approvalStatus(contextOf(ctx), args);
      return { content: [{ type: "text", text: renderOutcomeText(outcome) }], structuredContent: outcome };
    },
  );
}
