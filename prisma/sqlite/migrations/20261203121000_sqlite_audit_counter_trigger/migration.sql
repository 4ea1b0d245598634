-- An audit row on SQLite is one statement: it takes its tenant's last number + 1 from
-- AuditCounter itself (server/db/prepared-statements.ts), and this trigger moves the counter to
-- the row's number. A lone row is then written in autocommit, with no counter statement, BEGIN or
-- COMMIT around it. SQLite has one writer: the statement holds the write lock from its start, so
-- numbers stay gapless and in commit order. "max": a writer that moved the counter itself first
-- (Prisma's fallback insert, older code) leaves it where it put it.

CREATE TRIGGER "AuditEvent_counter" AFTER INSERT ON "AuditEvent"
BEGIN
    INSERT INTO "AuditCounter" ("tenantId", "seq") VALUES (NEW."tenantId", NEW."seq")
    ON CONFLICT ("tenantId") DO UPDATE SET "seq" = max("seq", excluded."seq");
END;
