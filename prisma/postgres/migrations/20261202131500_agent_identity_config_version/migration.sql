-- Agent keys are cached per instance too (server/gateway/agent-key-cache.ts), checked against the
-- tenant's configVersion on every call: a change to what a key resolves to bumps it, so a revoked,
-- re-keyed or moved key, or a person whose role changed, is seen by the next call on any
-- instance. Only the columns a call's identity is made of: the key's last use (written once a
-- minute) and a password change leave the stamp, and the tenant's cached setup, alone.
-- The function is the one the tenant_config_version migration made.

CREATE TRIGGER "Agent_config_version" AFTER UPDATE OF "tenantId", "name", "userId", "keyHash", "keyPrefix", "revokedAt", "faces" OR DELETE ON "Agent"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "User_config_version" AFTER UPDATE OF "tenantId", "email", "name", "role" OR DELETE ON "User"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();
