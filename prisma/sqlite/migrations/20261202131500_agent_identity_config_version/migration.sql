-- Agent keys are cached per instance too (server/gateway/agent-key-cache.ts), checked against the
-- tenant's configVersion on every call: a change to what a key resolves to bumps it, so a revoked,
-- re-keyed or moved key, or a person whose role changed, is seen by the next call on any
-- instance. Only the columns a call's identity is made of: the key's last use (written once a
-- minute) and a password change leave the stamp, and the tenant's cached setup, alone.

CREATE TRIGGER "Agent_config_version_update" AFTER UPDATE OF "tenantId", "name", "userId", "keyHash", "keyPrefix", "revokedAt", "faces" ON "Agent"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId" OR "id" = NEW."tenantId";
END;

CREATE TRIGGER "Agent_config_version_delete" AFTER DELETE ON "Agent"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "User_config_version_update" AFTER UPDATE OF "tenantId", "email", "name", "role" ON "User"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId" OR "id" = NEW."tenantId";
END;

CREATE TRIGGER "User_config_version_delete" AFTER DELETE ON "User"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;
