/**
 * The approval as the agent sees it: its status now (an approval past its time is `expired`),
 * until when it is valid, and who decided, when and why. Never anything that could approve.
 */
export interface ApprovalView {
  id: string;
  status: string;
  version: number;
  url: string;
  expires_at: string;
  decided_by: { name: string; role: string } | null;
  decided_at: string | null;
  reason: string | null;
}
