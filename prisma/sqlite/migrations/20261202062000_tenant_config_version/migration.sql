-- A stamp of everything a call reads about its tenant's connectors and rules (secrets, connector
-- settings, imported connectors, permission rules): every instance caches those per tenant and
-- keeps its copy while the stamp it reads with the call's tenant row is unchanged. Bumped by
-- triggers, so no writer (console, CLI, import, a hand-written SQL fix) can forget it.

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN "configVersion" INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER "Secret_config_version_insert" AFTER INSERT ON "Secret"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "Secret_config_version_update" AFTER UPDATE ON "Secret"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "Secret_config_version_delete" AFTER DELETE ON "Secret"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "Secret_config_version_move" AFTER UPDATE OF "tenantId" ON "Secret"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "ConnectorConfig_config_version_insert" AFTER INSERT ON "ConnectorConfig"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "ConnectorConfig_config_version_update" AFTER UPDATE ON "ConnectorConfig"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "ConnectorConfig_config_version_delete" AFTER DELETE ON "ConnectorConfig"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "ConnectorConfig_config_version_move" AFTER UPDATE OF "tenantId" ON "ConnectorConfig"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "ImportedConnector_config_version_insert" AFTER INSERT ON "ImportedConnector"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "ImportedConnector_config_version_update" AFTER UPDATE ON "ImportedConnector"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "ImportedConnector_config_version_delete" AFTER DELETE ON "ImportedConnector"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "ImportedConnector_config_version_move" AFTER UPDATE OF "tenantId" ON "ImportedConnector"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "PermissionRule_config_version_insert" AFTER INSERT ON "PermissionRule"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "PermissionRule_config_version_update" AFTER UPDATE ON "PermissionRule"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
END;

CREATE TRIGGER "PermissionRule_config_version_delete" AFTER DELETE ON "PermissionRule"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;

CREATE TRIGGER "PermissionRule_config_version_move" AFTER UPDATE OF "tenantId" ON "PermissionRule"
BEGIN
    UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
END;
