/**
 * What browse mode needs from the layers below, for one trusted caller. Browse renders pages and
 * forms; every decision (permissions, eligibility, validation, approvals) comes from these calls,
 * so a form is only another face of a capability node, never a second implementation of a rule.
 */

export type BrowseVerb = "search" | "navigate" | "submit";

export type OutcomeKindLike =
  | "applied"
  | "preview"
  | "input_required"
  | "rejected"
  | "conflict"
  | "not_found"
  | "temporarily_unavailable"
  | "unknown"
  | "connection_required"
  | "forbidden";

/** A gateway outcome as browse reads it: the fixed part plus operation-specific fields. */
export type BackendOutcome = {
  outcome: OutcomeKindLike;
  message: string;
  retryable?: boolean;
  reason?: string;
  action_id?: string;
  version?: number;
  next_actions?: Array<{
    tool: string;
    args?: Record<string, unknown>;
    description: string;
    requires_user_approval?: boolean;
    approval?: string;
  }>;
} & Record<string, unknown>;

export type Authorization = ({ decision: "allow" } | { decision: "deny" | "ask"; message: string }) & {
  /**
   * What decided: an admin's rule, a one-time grant (the call itself uses it up; a preview leaves
   * it), or the defaults (a system's read roles). Absent: not said.
   */
  source?: "rule" | "grant" | "default";
};

export interface ListPage<T> {
  data: T[];
  page: number;
  next_page: number | null;
  total: number;
}

export type Row = Record<string, unknown>;

export interface BrowseBackend {
  /**
   * Route permission for this caller; `ask` and `deny` become permission-denied pages. `start` on
   * a capability target asks once whether the caller may start it, before a search dry-runs it
   * per record. `preview` answers what the call would get without using up a one-time grant
   * (a search deciding whether to show a record the grant is for leaves it to the navigate).
   */
  authorize(
    verb: BrowseVerb | "start",
    target: string,
    options?: { preview?: boolean },
  ): Promise<Authorization>;
  /** One audit row per browse operation, written before the page is returned. */
  record(event: {
    verb: BrowseVerb;
    target: string;
    arguments: Record<string, unknown>;
    outcome: OutcomeKindLike;
    message?: string;
    latencyMs: number;
    actionId?: string;
    capability?: string;
  }): Promise<void>;

  /**
   * Runs `run` with the connector's adapter for the caller's tenant (credentials from the vault,
   * never shown). A system that does not answer, or has no key, comes back as a typed outcome.
   */
  withAdapter<A, T>(connector: string, run: (adapter: A) => Promise<T>): Promise<T | BackendOutcome>;
  // connectors(): every connector this caller's tenant has. Declared beside AnyConnector, in
  // define-connector.ts (the interface is merged there), so this file imports nothing back.

  /** The entity view of the engine (what may be done now and why not), via get_context. */
  entityView(entity: string, id: string): Promise<BackendOutcome>;
  /**
   * Which of these records of `entity` an action of this same agent created (id → when), in the
   * caller's tenant: a list marks them ("placed by you"). Absent: nothing is marked.
   */
  createdByCaller?(entity: string, ids: string[]): Promise<Record<string, string>>;
  /** An action via get_context (node, options, allowed_patch, patch schema). */
  action(actionId: string): Promise<BackendOutcome>;
  /** The capability catalog via search_capabilities. */
  searchCapabilities(query: string): Promise<BackendOutcome>;
  /**
   * This backend for the page at `target` (navigate's), its permission check included: its read
   * of that same target is part of the page's call, decided by the page's navigate decision (a
   * one-time grant allows the page once, not once for the page and again for its record) and
   * recorded by the page's own row instead of a second one. Every other read keeps its own row.
   */
  forPage?(target: string): BrowseBackend;
  startAction(input: {
    capability: string;
    entity_id?: string;
    patch?: Record<string, unknown>;
    /** The user's words: a choice they name exactly is taken (as start_action takes it). */
    intent?: string;
    dry_run?: boolean;
  }): Promise<BackendOutcome>;
  advanceAction(input: {
    action_id: string;
    version: number;
    patch: Record<string, unknown>;
  }): Promise<BackendOutcome>;
  confirmAction(input: {
    action_id: string;
    idempotency_key: string;
    version?: number;
  }): Promise<BackendOutcome>;
  verifyAction(input: { action_id: string }): Promise<BackendOutcome>;

  /** Connector settings and, per secret, only whether it is set and when it changed. */
  connectorConfig(connector: string): Promise<{
    connector: string;
    enabled: boolean;
    settings: Record<string, unknown>;
    secrets: Array<{ name: string; set: boolean; updatedAt: string | null }>;
  } | null>;
  requestPermission(input: { verb: string; target: string; reason?: string }): Promise<BackendOutcome>;

  /**
   * What a page may show of a piece of text: secret-looking parts (card numbers, `?token=…`,
   * API keys…) replaced by the gateway's redaction. Every page passes it, echoes above all.
   */
  redact(text: string): string;
  /** Console base URL, for approval links. */
  consoleUrl(path: string): string;
  /**
   * The tenant's display name and the caller's name/email (search "Acme" finds the tenant), and
   * the caller's role, which decides whether admin-only routes exist for them at all.
   */
  who(): {
    tenantId: string;
    tenantName: string;
    userEmail: string;
    userName: string;
    agentName?: string;
    role: "admin" | "support" | "member";
  };
}
