-- A stamp of everything a call reads about its tenant's connectors and rules (secrets, connector
-- settings, imported connectors, permission rules): every instance caches those per tenant and
-- keeps its copy while the stamp it reads with the call's tenant row is unchanged. Bumped by
-- triggers, so no writer (console, CLI, import, a hand-written SQL fix) can forget it.

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN "configVersion" INTEGER NOT NULL DEFAULT 0;

-- The function's body is an escaped string (\073 is a semicolon): the migration runner here splits
-- a script at every semicolon, dollar quotes included.
CREATE FUNCTION "signpost_bump_config_version"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN\n    IF TG_OP <> ''INSERT'' THEN\n        UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId"\073\n    END IF\073\n    IF TG_OP <> ''DELETE'' AND (TG_OP = ''INSERT'' OR NEW."tenantId" IS DISTINCT FROM OLD."tenantId") THEN\n        UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId"\073\n    END IF\073\n    RETURN NULL\073\nEND';

CREATE TRIGGER "Secret_config_version" AFTER INSERT OR UPDATE OR DELETE ON "Secret"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "ConnectorConfig_config_version" AFTER INSERT OR UPDATE OR DELETE ON "ConnectorConfig"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "ImportedConnector_config_version" AFTER INSERT OR UPDATE OR DELETE ON "ImportedConnector"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "PermissionRule_config_version" AFTER INSERT OR UPDATE OR DELETE ON "PermissionRule"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();
