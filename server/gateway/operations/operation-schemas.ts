import { z } from "zod";
import { SERVER_CONFIRM_KEY } from "../../engine/server-made-key";
import { LISTED_BOUNDS } from "../listed-bounds";

/**
 * Strict input schemas of the gateway operations. No identity fields: tenant, user, agent and
 * role come from the credential, so any such argument is an unknown key and rejected. The MCP
 * face turns these into tool inputSchemas (z.toJSONSchema). Descriptions are short, and absent
 * where the name and next_actions say it all (action_id, dry_run): every tools/list costs the
 * model tokens.
 */

/**
 * The one idempotency rule, stated the same wherever a key is asked for: any key of yours;
 * resending it returns the first outcome; an action's effect never happens twice.
 */
export const IDEMPOTENCY_RULE = "Yours; resent, it returns the first outcome, never a second effect";

const id = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    // \w is [A-Za-z0-9_] (no u flag): the same ids, fewer tokens in every tools/list.
    .regex(/^[\w-]+$/, `${what} is an id of letters, digits, _ and -`);

const patch = z.record(z.string().max(64), z.unknown()).describe("null clears a field");

export const searchCapabilitiesInputSchema = z
  .object({
    query: z.string().trim().min(1).max(500),
    limit: z.number().int().min(1).max(10).optional(),
  })
  .strict();

/** The key's rule in words, with an example, for the refusal a model reads (zod's default names no example). */
const KEY_RULE = "8 to 128 letters, digits or _ . : - (e.g. pay-ord-20261202)";

const idempotencyKey = z
  .string()
  .trim()
  .min(8, `too short: ${KEY_RULE}`)
  .max(128, `too long: ${KEY_RULE}`)
  .regex(/^[\w.:-]+$/, KEY_RULE)
  // Listed even where a tool lists only its fields' shape: no model guesses a minimum of 8.
  .meta({ [LISTED_BOUNDS]: ["minLength"] });

/**
 * On start and advance. A change that is complete, needs no approval and names its record runs
 * at once with or without it (compose-action-steps.ts); without one the server keys the request
 * for SERVER_KEY_WINDOW_MS (server-made-key.ts). So it is said as what it adds: a resend at any
 * time is the first outcome, and a new key makes the same change again. Round 7's model read a
 * key described as a risk and left it out; this one costs nothing left out.
 */
const confirmKey = idempotencyKey
  .optional()
  .describe("Optional: a resend returns the first outcome (keyless: 10 min); a new key repeats a change");

export const startActionInputSchema = z
  .object({
    // An id, or a capability's exact title as pages show it ("After-sales request"): bounded
    // letters, digits, spaces, - and _, compared as text by capability-by-name.ts, never a pattern.
    capability: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .regex(
        /^[\w -]+$/,
        "a capability id such as checkout, or its exact title (letters, digits, spaces, - and _)",
      )
      .optional(),
    intent: z.string().trim().min(1).max(500).optional().describe("The user's words"),
    entity_id: id("entity_id").optional(),
    patch: patch.optional(),
    idempotency_key: confirmKey,
    dry_run: z.boolean().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    // Both may come together: the capability decides, the words fill fields.
    if (v.capability === undefined && v.intent === undefined)
      ctx.addIssue({ code: "custom", message: "Give capability, intent or both", path: ["capability"] });
  });

export const getContextInputSchema = z
  .object({
    action_id: id("action_id").optional(),
    // A name, not an enum: the entities come from the connectors, and the tool list stays the
    // same however many are connected.
    entity: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, "an entity name such as the applies_to of a capability")
      .optional(),
    entity_id: id("entity_id").optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const byAction = v.action_id !== undefined;
    const byEntity = v.entity !== undefined || v.entity_id !== undefined;
    // The entity may be left out: the id's prefix names it (ord_… is an order), as a model
    // that read the id expects (issue 23: `{"entity_id":"ord_transit"}` was a wasted call).
    if (byAction === byEntity || (byEntity && !v.entity_id))
      ctx.addIssue({ code: "custom", message: "Give either action_id, or entity_id (and entity)", path: [] });
  });

export const advanceActionInputSchema = z
  .object({
    action_id: id("action_id"),
    version: z.number().int().min(1),
    patch: patch,
    idempotency_key: confirmKey,
    dry_run: z.boolean().optional(),
  })
  .strict();

export const confirmActionInputSchema = z
  .object({
    action_id: id("action_id"),
    version: z.number().int().min(1).optional(),
    idempotency_key: idempotencyKey.describe(IDEMPOTENCY_RULE),
    dry_run: z.boolean().optional(),
  })
  .strict();

/**
 * The confirm the gateway sends itself, under a key it made (compose-action-steps.ts): no tool
 * takes it, and its key is one no agent can send (server-made-key.ts), so the audit row says so.
 */
export const serverKeyConfirmSchema = z
  .object({
    action_id: id("action_id"),
    version: z.number().int().min(1).optional(),
    idempotency_key: z.string().regex(SERVER_CONFIRM_KEY),
  })
  .strict();

export const verifyActionInputSchema = z
  .object({
    action_id: id("action_id"),
  })
  .strict();

export const recoverActionInputSchema = z.object({ action_id: id("action_id") }).strict();

export const cancelActionInputSchema = z.object({ action_id: id("action_id") }).strict();

export const approvalStatusInputSchema = z
  .object({ action_id: id("action_id").describe("The action shown on the confirmation screen") })
  .strict();

export const requestPermissionInputSchema = z
  .object({
    verb: z
      .enum(["search", "navigate", "submit", "start", "advance", "confirm", "script"])
      .describe("What the agent wants to do"),
    target: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe("The URI or capability target exactly as the refusal named it"),
    reason: z.string().trim().max(500).optional().describe("Why, for the admin"),
  })
  .strict();

export const resolveRecoveryInputSchema = z
  .object({
    action_id: id("action_id").describe("An action in the recovery queue"),
    resolution: z
      .enum(["applied", "not_applied"])
      .describe("What a person established happened at the system of record"),
    note: z.string().trim().max(1000).optional().describe("What was checked"),
  })
  .strict();

export type ResolveRecoveryInput = z.infer<typeof resolveRecoveryInputSchema>;
