-- Nothing to do on PostgreSQL: its audit statement already moves the counter and inserts the rows
-- in one statement (server/db/prepared-statements.ts). The SQLite migration of the same name adds
-- the trigger that lets SQLite do the same.
SELECT 1;
