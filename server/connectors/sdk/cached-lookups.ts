/**
 * Lookups a connector remembers between calls: the ones that say who the caller is in its system
 * (the shop customer a Signpost user acts as), asked again by every view. The gateway keeps them
 * per tenant, connector, credentials and person (never shared across tenants or people; a new
 * address or secret starts afresh on every instance) for a short, bounded time.
 */
export interface CachedLookups {
  /**
   * `load()`'s value for `key`, remembered for at most the gateway's TTL (LOOKUP_TTL_MS, 30 s):
   * nothing tells Signpost when the system beneath changes, so what it changed is seen up to that
   * late. Remember only answers that may be that stale — who a person is there, never balances,
   * stock or statuses. Calls waiting on one key share one load; a load that throws is forgotten.
   */
  remember<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** No memory (no person named, or a test's adapter): every lookup is asked. */
export const uncachedLookups: CachedLookups = { remember: (_key, load) => load() };
