import { z } from "zod";

/**
 * Strict input schemas of the gateway operations. No identity fields: tenant, user, agent and
 * role come from the credential, so any such argument is an unknown key and rejected. The MCP
 * face turns these into tool inputSchemas (z.toJSONSchema), so every field is described.
 */

const id = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, `${what} is an id of letters, digits, _ and -`);

const patch = z
  .record(z.string().max(64), z.unknown())
  .describe(
    "Field values to apply, keyed by field name from the action's inputs / allowed_patch; null clears an optional field",
  );

export const searchCapabilitiesInputSchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe("The user's intent in their own words, any language, e.g. 'I want to return my order'"),
    limit: z.number().int().min(1).max(10).optional().describe("How many capabilities to return (default 3)"),
  })
  .strict();

export const startActionInputSchema = z
  .object({
    capability: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9_]*$/, "a capability id such as checkout")
      .describe("Capability id from search_capabilities, e.g. checkout, after_sales"),
    entity_id: id("entity_id")
      .optional()
      .describe(
        "Id of the entity the capability applies to (an order id, a ticket id), when it applies to one",
      ),
    patch: patch
      .optional()
      .describe("Every field the user already gave, so one call can go as far as possible"),
    dry_run: z.boolean().optional().describe("Validate and preview without creating anything"),
  })
  .strict();

export const getContextInputSchema = z
  .object({
    action_id: id("action_id")
      .optional()
      .describe("Re-read this action (to resume it); includes the JSON Schema of the patch it accepts now"),
    entity: z
      .enum(["order", "ticket"])
      .optional()
      .describe("Read an entity's view instead: what it is and what may be done now"),
    entity_id: id("entity_id").optional().describe("The entity's id, with `entity`"),
  })
  .strict()
  .superRefine((v, ctx) => {
    const byAction = v.action_id !== undefined;
    const byEntity = v.entity !== undefined || v.entity_id !== undefined;
    if (byAction === byEntity || (byEntity && (!v.entity || !v.entity_id)))
      ctx.addIssue({ code: "custom", message: "Give either action_id, or entity and entity_id", path: [] });
  });

export const advanceActionInputSchema = z
  .object({
    action_id: id("action_id").describe("The action to change"),
    version: z.number().int().min(1).describe("The version last read; a stale version is a conflict"),
    patch: patch,
    dry_run: z.boolean().optional().describe("Validate and preview without saving"),
  })
  .strict();

export const confirmActionInputSchema = z
  .object({
    action_id: id("action_id").describe("The action at its confirmation node"),
    version: z.number().int().min(1).optional().describe("The version the user approved"),
    idempotency_key: z
      .string()
      .trim()
      .min(8)
      .max(128)
      .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, and _ . : -")
      .describe(
        "Your key for this confirmation; resending it returns the first outcome, never a second effect",
      ),
    dry_run: z.boolean().optional().describe("Check approval and preview without executing"),
  })
  .strict();

export const verifyActionInputSchema = z
  .object({
    action_id: id("action_id").describe("The action whose effect to check with the system of record"),
  })
  .strict();

export const recoverActionInputSchema = z
  .object({ action_id: id("action_id").describe("The action left unknown (or failed) to reconcile") })
  .strict();

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
      .describe("URI or capability target, e.g. capability:after_sales or shop://order/ord_1/after-sales"),
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
