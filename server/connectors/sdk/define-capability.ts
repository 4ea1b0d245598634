import type { z } from "zod";
import type { ValidationError } from "./outcome";
import type { StatusLifecycle } from "./record-events";

/**
 * The person an action is done for, as the gateway established it from a credential.
 * Capabilities see only this; they never see credentials.
 */
export interface Actor {
  tenantId: string;
  userId: string;
  email: string;
  role: "admin" | "support" | "member";
  agentId?: string;
}

export type Values = Record<string, unknown>;

/** A connector as a capability's permission target sees it (its id; generated ones carry more). */
export interface AnyConnectorLike {
  id: string;
}

/**
 * The facts a capability's nodes derive for later nodes, its summary and its effect, typed once
 * by the capability (`defineCapability<Adapter, { account: Account }>`), so no reader casts.
 */
export type Derived = Record<string, unknown>;

/**
 * What a node's `resolve` sees: the values so far (already parsed), what upstream nodes derived
 * (any of it may be missing: a node upstream may not have run yet).
 */
export interface NodeInput<A, D extends object = Derived> {
  adapter: A;
  actor: Actor;
  values: Values;
  derived: Partial<D>;
  /**
   * Which of these records of `entity` an action of this same agent created (id → when), in the
   * actor's tenant: a node offering records marks them ("the order I placed"). Absent: none.
   */
  createdByAgent?: (entity: string, ids: string[]) => Promise<Record<string, string>>;
}

/** What a node's `resolve` computes in deterministic code. */
export interface NodeResult<D extends object = Derived> {
  /** Choices and downstream facts shown to the agent (addresses, available_coupons, eligibility). */
  options?: Record<string, unknown>;
  /** Facts kept for downstream nodes, the summary and the effect; not shown as is. */
  derived?: Partial<D>;
  /** Values the server fills in when the agent sent none (e.g. the cheapest shipping method). */
  defaults?: Values;
  /** Fields required at this node given what is known now (overrides the static list). */
  required?: string[];
  errors?: ValidationError[];
  /** The entity the action is about does not exist for this actor: the whole call is `not_found`. */
  notFound?: { entity: string; id: string };
  /**
   * Choices of fields that live inside one of the node's fields (an imported form's `values`),
   * by inner name: the words mechanism reads them as the node's own ("Sold" → sold, the request).
   */
  inner?: { field: string; choices: Record<string, string[]> };
}

export interface NodeDefinition<A, D extends object = Derived> {
  /** Upper-case business name of the step, e.g. `ADDRESS`; shown to agents. */
  id: string;
  description: string;
  /** The patch fields this node owns, each a zod schema with `.describe()`. */
  fields?: Record<string, z.ZodType>;
  /** Fields of upstream nodes this node's options and validation depend on. */
  dependsOn?: string[];
  /** Static list of required fields; default: every field whose schema is not optional. */
  required?: string[];
  /**
   * Fields whose choice changes the money the action moves (a shipping method, a plan tier):
   * never filled from `defaults` — the user chooses, the answer lists the choices with their
   * prices, and search_capabilities names these fields up front so the agent asks once. A field
   * whose offered rows differ under a declared money key is treated so even when not listed
   * (server/engine/paid-choices.ts); declaring it is what lets an agent know before starting.
   */
  paidChoices?: string[];
  /**
   * Optional fields the user opts into (a coupon): never filled from `defaults` nor picked by the
   * agent. While the node offers choices for one that is not set, the answer lists them as the
   * user's choice — applied only on their word, or when they asked for the cheapest.
   */
  optInChoices?: string[];
  /**
   * Fields with a default that decides who sees data or what happens (a comment's `internal`),
   * with the words that name each value. search_capabilities states them and the default up front;
   * a start by words takes a value its words name, and where they name none (or several), a
   * change nobody approves is held for the agent to ask, never run on the default.
   */
  saidBy?: Record<string, FieldWords>;
  resolve?: (input: NodeInput<A, D>) => Promise<NodeResult<D>>;
  /**
   * Rows a person may name that the node does not show (a catalog), by list name: read only to
   * turn the user's words into a choice (server/engine/choice-words.ts), never sent to the agent.
   */
  lookup?: (input: NodeInput<A>) => Promise<Record<string, unknown[]>>;
  /**
   * Other words people use for a list this node offers or looks up, by list name (`cart`:
   * basket): where the user's words name a list ("buy my basket"), these name it as its own
   * name does. The connector's words, never the engine's.
   */
  listNames?: Record<string, string[]>;
  /**
   * Other words people use for the values of a field with choices, by field and value
   * (`payment_type`: `balance` is "store credit", "account balance"): a value sent as those words,
   * or a request saying them, is that value, as the value's own name is (an offered row's label
   * or name, an enum value). The connector's words, never the engine's; words two values share
   * name neither.
   */
  valueWords?: Record<string, Record<string, readonly string[]>>;
  /**
   * List-of-ids fields whose ids each take a whole line (an order's items: the ids carry no
   * quantity), with what the system says of it ("a return takes whole lines"). Where the user's
   * words count fewer of a line than it holds ("one of the two mugs"), the answer says so at once
   * and takes nothing (server/engine/partial-line-words.ts); the field's shape shows per line what
   * goes. A list-of-ids field whose rows carry a quantity is read so even when not declared.
   */
  wholeLines?: Record<string, string>;
  /**
   * Fields only some values of a choice use (`item_ids` only for `kind: return_refund`): `field`
   * is the choosing field, `takes` maps each such field to the values that use it. A field sent
   * beside a value that does not use it is refused, naming the values that take it, never dropped
   * in silence (a refund-only dry run with `item_ids` showed the whole order refunded). Where the
   * node's own check refuses such a field with its reason, that is said instead.
   */
  usedOnlyWhen?: { field: string; takes: Record<string, readonly string[]> };
  /**
   * Fields kept with the action (its summary, the audit) and never sent to the system: a reason
   * among them takes the user's request verbatim when they gave none, even for a change nobody
   * approves, as nobody outside reads it (request-as-reason.ts).
   */
  keptOnly?: readonly string[];
  /**
   * Integer fields that count the thing another field of the node names (`quantity` of
   * `product_id`), with the connector's words for none of it (`none`: "remove") and for more on
   * top of what it holds (`more`: "add"): the request's number said with the thing ("3 mugs")
   * fills the count, a `none` phrase 0 (or what is left: "remove one" of two), a `more` phrase
   * what the chosen row holds under the field's name plus the number (server/engine/count-words.ts).
   */
  counts?: Record<string, { of: string; none?: readonly string[]; more?: readonly string[] }>;
  /**
   * Fields whose values stand on a scale (`priority`: low → urgent), with the connector's words
   * for moving up it ("raise", "escalate") and down it ("lower"). A value the user's words take
   * (or send beside them at a start) that moves the record the other way ("lower … to normal"
   * on a low ticket) is not taken: the user is asked (server/engine/against-direction.ts).
   */
  scales?: Record<string, FieldScale>;
  /** A confirmation node: the action stops here until a person approves and the agent confirms. */
  requiresConfirmation?: boolean;
  /**
   * The states the records this node offers pass, in order (`statusLifecycle`, record-events.ts):
   * what lets "the order that hasn't shipped" leave out a delivered one, whose row says only
   * "delivered". Rows' own `<event>_at` timestamps are read without it.
   */
  lifecycle?: StatusLifecycle;
}

/** A field's values in their order on the scale, lowest first, and the words that move along it. */
export interface FieldScale {
  order: readonly string[];
  up: readonly string[];
  down: readonly string[];
}

/** The words that name each value of a consequential field, and what its default means. */
export interface FieldWords {
  /**
   * Each value with the phrases that ask for it ("internal note" → true; the first is shown), and
   * optional hints: words that lean to it but ask nothing ("note", "for the customer"). A phrase
   * is taken only as an ask (server/engine/said-by-words.ts); a phrase or hint of another value
   * beside it takes neither, and a change nobody approves waits for the user. Phrases for the
   * value that shows data name the audience and the act ("reply to the customer"), never a bare
   * word or preposition that also fits other nouns ("the customer's ticket").
   */
  values: Array<{ value: string | boolean; words: string[]; hints?: string[] }>;
  /** What the default does, in a few words ("the customer sees it"). */
  defaultMeans: string;
}

/** What the system said when the effect was sent. */
export type EffectResult =
  /** `entityId` names an entity the effect created (checkout: the order). */
  | { status: "applied"; externalId?: string; entityId?: string; response: unknown }
  /** The system refused for a business reason: definitely not applied. */
  | { status: "rejected"; code: string; message: string }
  /** A 200 whose body shows nothing changed: definitely not applied. */
  | { status: "not_applied"; message: string }
  /** Failed before anything could happen (503, refused connection) after every attempt. */
  | { status: "unavailable"; message: string }
  /** Sent, but no answer (timeout, socket dropped): it may or may not have happened. */
  | { status: "unknown"; message: string };

/** What the system says really happened, looked up by action key / external id. */
export type Verification =
  | { happened: true; externalId?: string; entityId?: string; details: Record<string, unknown> }
  /** Proof of absence only (a lookup by action key that finds nothing): recovery re-sends on it. */
  | { happened: false; details: Record<string, unknown> }
  | { happened: "unavailable"; message: string }
  /**
   * The system answered, but its answer decides nothing (a DELETE whose record still reads back:
   * soft deletes). Recovery re-sends only what `resendable` says the system deduplicates;
   * anything else goes to a person.
   */
  | { happened: "undecided"; message: string; details: Record<string, unknown> };

/** What the effect sees: every node has resolved (the action reached its confirmation), so `derived` is whole. */
export interface EffectContext<A, D extends object = Derived> {
  adapter: A;
  actor: Actor;
  values: Values;
  derived: D;
  /** The action key: sent as Idempotency-Key and `reference`; the same on every retry. */
  actionKey: string;
  /** Per-attempt deadline and retry budget from the capability's policy. */
  timeoutMs: number;
  attempts: number;
}

export interface EffectDefinition<A, D extends object = Derived> {
  /** Ledger kind, `domain.thing`, e.g. `shop.payment`. */
  kind: string;
  description: string;
  execute: (ctx: EffectContext<A, D>) => Promise<EffectResult>;
  verify: (ctx: EffectContext<A, D>) => Promise<Verification>;
  /**
   * Whether sending again with the same action key cannot apply twice (the system deduplicates
   * by it). Consulted only when verification is `undecided`; absent means no.
   */
  resendable?: (ctx: EffectContext<A, D>) => Promise<boolean> | boolean;
}

export type ApprovalRule = "always" | "never" | ((summary: Record<string, unknown>) => boolean);

/**
 * Who may decide an approval. By default only the person the action is done for: charging
 * Alice's card is Alice's decision, not an admin's. A policy may name roles of the tenant that
 * decide instead of (or as well as) that person, e.g. a cross-team assignment needs an admin.
 */
export interface ApproverRule {
  /** The person the action is for may decide. */
  subject: boolean;
  /** Roles of the same tenant that may decide as well. */
  roles: Array<Actor["role"]>;
}

export const DEFAULT_APPROVERS: ApproverRule = { subject: true, roles: [] };

/** Who decides this capability's approval of this summary (its policy, or the default). */
export function approversOf(
  capability: { policy: Pick<CapabilityPolicy, "approvers"> } | undefined,
  summary: unknown,
): ApproverRule {
  const rule = capability?.policy.approvers;
  if (!rule) return DEFAULT_APPROVERS;
  return typeof rule === "function" ? rule((summary ?? {}) as Record<string, unknown>) : rule;
}
/** How long a person has to decide, and a granted approval stays usable: 30 minutes. */
export const DEFAULT_APPROVAL_TTL_MS = 30 * 60 * 1000;

export interface CapabilityPolicy {
  effect: "read" | "write";
  /** Permission name checked by the gateway, e.g. `shop.order.pay`. */
  permission: string;
  /** Roles of the acting user allowed to use it at all. */
  roles: Array<Actor["role"]>;
  approval: ApprovalRule;
  /**
   * When a conditional approval (a function) applies, in words ("the assignee is on another
   * team"): search_capabilities states it, so no flag there contradicts the flow.
   */
  approvalWhen?: string;
  /** Who decides the approval; default DEFAULT_APPROVERS (the person the action is for). */
  approvers?: ApproverRule | ((summary: Record<string, unknown>) => ApproverRule);
  /** How long an approval request (and a granted, unconfirmed approval) is valid; default 30 min. */
  approvalTtlMs?: number;
  retry: { attempts: number; backoffMs: number };
  timeoutMs: number;
  audit: "full" | "summary";
}

/** Which keys of a capability's rows are money, in integer minor units of one ISO currency. */
export type MoneyKeys = { keys: string[]; currency: string };

export interface CapabilityDefinition<A, D extends object = Derived> {
  id: string;
  connector: string;
  title: string;
  description: string;
  trigger: { use: string; avoid: string };
  /**
   * Found by words only where they hold one of these words: a capability started from forms,
   * whose verb alone says nothing ("send it to my home" ranked the imported systems' "Send a
   * request" first, set CW). Not topic words: those would make every other connector's
   * capabilities off-topic for words holding them (review 67: "buy an imported lamp").
   */
  foundBy?: string[];
  /** Extra words people use for this intent (English and Chinese), for capability search. */
  synonyms: string[];
  /** The entity type the action is about; `field` names the patch field holding its id. */
  appliesTo: { entity: string; field?: string };
  prerequisites: string[];
  sideEffects: string[];
  policy: CapabilityPolicy;
  /**
   * The keys of its option rows that hold money in integer minor units, and their currency: an
   * agent reads them as money ("$156.50"), never as a bare 15650 it could take for dollars.
   * Keys not declared are shown as they are (no surface guesses from a key's name).
   */
  money?: MoneyKeys;
  nodes: NodeDefinition<A, D>[];
  /**
   * What a person approves: the facts at the confirmation node (what approval rules and tests
   * read) with their typed parts under `shown` (see decision-summary.ts: build them with
   * `withShown(facts, declaration)` or write them directly). Every surface renders only the
   * typed parts, through render-decision-summary.ts; `now` holds context facts kept out of the
   * digest (a balance before and after).
   */
  summarize?: (input: { values: Values; derived: D }) => Record<string, unknown>;
  effect?: EffectDefinition<A, D>;
  /**
   * What starting it is authorized against, from the start patch, when not `capability:<id>`:
   * a capability that serves many operations (an imported system's writes) names the operation's
   * form URI, so rules grant each one separately.
   */
  permissionTarget?: (patch: Values, connectors: readonly AnyConnectorLike[]) => string;
  /** Read-only capabilities answer at once, with no confirmation. */
  read?: (
    input: NodeInput<A, D>,
  ) => Promise<{ result: Record<string, unknown> } | { error: ValidationError }>;
}

/**
 * Declares a capability in one readable place; the identity function keeps types checked. `D`
 * names the facts its nodes derive (`{ account: Account }`): resolve returns them, and the
 * summary and the effect read them typed.
 */
export function defineCapability<A, D extends object = Derived>(
  definition: CapabilityDefinition<A, D>,
): CapabilityDefinition<A, D> {
  const ids = new Set<string>();
  for (const node of definition.nodes) {
    if (ids.has(node.id)) throw new Error(`capability ${definition.id}: duplicate node ${node.id}`);
    ids.add(node.id);
    for (const [what, fields] of [
      ["paid choice", node.paidChoices],
      ["opt-in choice", node.optInChoices],
      ["whole-lines field", Object.keys(node.wholeLines ?? {})],
      ["said-by-words field", Object.keys(node.saidBy ?? {})],
      ["value-words field", Object.keys(node.valueWords ?? {})],
      ["count field", Object.keys(node.counts ?? {})],
      ["scale field", Object.keys(node.scales ?? {})],
    ] as const)
      for (const field of fields ?? [])
        if (!node.fields || !Object.hasOwn(node.fields, field))
          throw new Error(
            `capability ${definition.id}: node ${node.id} declares ${what} ${field}, not one of its fields`,
          );
  }
  if (definition.policy.effect === "write" && !definition.effect)
    throw new Error(`capability ${definition.id}: a write capability needs an effect`);
  if (definition.policy.effect === "write" && !definition.nodes.some((n) => n.requiresConfirmation))
    throw new Error(`capability ${definition.id}: a write capability needs a confirmation node`);
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds capabilities of every connector's adapter type
export type AnyCapability = CapabilityDefinition<any, any>;
