/** What every shop capability shares: open to every role, and the legacy shop's latency budget. */
export const SHOP_POLICY = {
  roles: ["member", "support", "admin"] as Array<"member" | "support" | "admin">,
  retry: { attempts: 3, backoffMs: 100 },
  timeoutMs: 3000,
};
