import { inputResponse, type ServerContext } from "@modelcontextprotocol/server";

/**
 * Whether the person declined the approval screen their host was asked to open (a retried round's
 * `approval` answer is `decline`). Not a dismissal (`cancel`: closed without choosing, still
 * theirs to decide) and not `accept` (they went to the screen; the approval itself says what they
 * decided). Read from the host, so it may be the model's word: it only ever withdraws.
 */
export function declinedInHost(ctx: ServerContext): boolean {
  const answer = inputResponse(ctx.mcpReq.inputResponses, "approval");
  return answer.kind === "elicit" && answer.action === "decline";
}
