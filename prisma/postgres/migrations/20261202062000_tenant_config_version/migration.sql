-- A stamp of everything a call reads about its tenant's connectors and rules (secrets, connector
-- settings, imported connectors, permission rules): every instance caches those per tenant and
-- keeps its copy while the stamp it reads with the call's tenant row is unchanged. Bumped by
-- triggers, so no writer (console, CLI, import, a hand-written SQL fix) can forget it.

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN "configVersion" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "signpost_bump_config_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = OLD."tenantId";
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."tenantId" IS DISTINCT FROM OLD."tenantId") THEN
        UPDATE "Tenant" SET "configVersion" = "configVersion" + 1 WHERE "id" = NEW."tenantId";
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "Secret_config_version" AFTER INSERT OR UPDATE OR DELETE ON "Secret"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "ConnectorConfig_config_version" AFTER INSERT OR UPDATE OR DELETE ON "ConnectorConfig"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "ImportedConnector_config_version" AFTER INSERT OR UPDATE OR DELETE ON "ImportedConnector"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();

CREATE TRIGGER "PermissionRule_config_version" AFTER INSERT OR UPDATE OR DELETE ON "PermissionRule"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_config_version"();
