/** Tenant keys used when LEGACY_API_KEYS is not set: fine for a local demo, documented in API.md. */
export const defaultLegacyApiKeys = { acme: "lk_acme_demo_key", globex: "lk_globex_demo_key" } as const;
