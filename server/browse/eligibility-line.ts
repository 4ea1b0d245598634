import type { BrowseBackend, Row } from "../connectors/sdk/browse-backend";
import { code } from "../connectors/sdk/markdown";

/** Words asking whether an action is possible ("orders I can return", "can still be refunded"). */
const ASKS_IF_POSSIBLE = /\b(can|could|eligible|allowed|able to|still)\b/i;
/** A polite frame is no such question: "can you find…", "could I see…" ask to read. */
const POLITE_FRAME =
  /\b(can|could)\s+(you|u|i|we)\s+(please\s+)?(find|show|see|get|give|list|look|tell|view|have|search|pull|check)\b|\b(can|could)\s+(you|u)\b/gi;

/**
 * One line for a search that asks which records an action is possible for: no listing knows
 * that, the capability does. Its dry run answers per record and changes nothing; round 3's model
 * searched "orders I can return", got a list of pages and opened every order. Null when the
 * words do not ask it or no capability matches them.
 */
export async function eligibilityLine(backend: BrowseBackend, q: string): Promise<string | null> {
  if (!ASKS_IF_POSSIBLE.test(q.replace(POLITE_FRAME, " "))) return null;
  const caps = await backend.searchCapabilities(q);
  if (caps.outcome !== "applied") return null;
  const list = (
    Array.isArray(caps.results) ? caps.results : Array.isArray(caps.capabilities) ? caps.capabilities : []
  ) as Row[];
  const top = list[0];
  const id =
    typeof top?.capability === "string" ? top.capability : typeof top?.id === "string" ? top.id : null;
  if (!id) return null;
  const call = JSON.stringify({ capability: id, entity_id: "…", dry_run: true });
  return `Whether it is possible is ${code(id)}'s to say, per record: each record's page lists the actions that apply now and why the others do not, or \`start_action ${call}\` previews one (nothing changes).`;
}
