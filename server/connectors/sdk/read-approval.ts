/** An answer's `approval`, as pages and text blocks show it (the engine's ApprovalView, read loosely). */
export interface ApprovalShown {
  status: string;
  expires_at?: string;
  decided_by?: { name?: string; role?: string } | null;
  decided_at?: string | null;
  reason?: string | null;
}

/** The approval of an outcome, or null where it has none (or no status). */
export function readApproval(value: unknown): ApprovalShown | null {
  if (!value || typeof value !== "object") return null;
  const a = value as Partial<ApprovalShown>;
  return typeof a.status === "string" && a.status ? (a as ApprovalShown) : null;
}
