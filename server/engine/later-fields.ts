import { z } from "zod";
import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import { listPointersSaid } from "../connectors/sdk/list-pointers";
import { isFreeText } from "./choice-words";
import { requiredFields } from "./describe-inputs";
import { present } from "./present-value";

/** How long one field's note may be: the whole line stays a few dozen tokens for any capability. */
const NOTE_CUT = 70;
/** How many later fields are named: a long flow names its next few, not its every step. */
const FIELDS_CUT = 6;

/**
 * The required fields of the nodes after the one the action stopped at, not given yet, each
 * with a short note (its choices, or "free text, the user's words", or its description).
 * Said up front so an agent that already knows them sends them with the current choice in one
 * advance: the engine takes every field of the flow at any step and applies them in node order.
 */
export function laterFields(
  capability: AnyCapability,
  nodeId: string,
  values: Values,
  options: Record<string, unknown>,
): Record<string, string> {
  const at = capability.nodes.findIndex((n) => n.id === nodeId);
  if (at < 0) return {};
  const out: Record<string, string> = {};
  for (const node of capability.nodes.slice(at + 1)) {
    // The confirmation node takes no input: nothing after it is asked of the agent.
    if (node.requiresConfirmation) break;
    const required = [...requiredFields(node), ...(node.paidChoices ?? [])];
    for (const field of required) {
      const schema = node.fields?.[field];
      if (!schema || field in out || present(values[field])) continue;
      if (Object.keys(out).length >= FIELDS_CUT) return out;
      out[field] = noteOf(field, schema, options);
    }
  }
  return out;
}

function noteOf(field: string, schema: z.ZodType, options: Record<string, unknown>): string {
  if (isFreeText(field, schema, options)) return "free text, the user's words";
  let json: Record<string, unknown> = {};
  try {
    json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  } catch {
    // A schema JSON Schema cannot express: its description alone says what it is.
  }
  const choices = Array.isArray(json.enum) ? json.enum.map(String).join(" | ") : undefined;
  // A later step's list is not in this answer: its description says when it comes instead.
  const described =
    schema.description &&
    listPointersSaid(schema.description, (list) => Object.hasOwn(options, list), "listed at its step");
  const note = choices ?? (described || (typeof json.type === "string" ? json.type : "value"));
  return note.length > NOTE_CUT ? `${note.slice(0, NOTE_CUT - 1)}…` : note;
}
