// prisma/postgres/schema.prisma is derived from prisma/sqlite/schema.prisma: the same models,
// only the datasource provider and the generator output differ. Edit the SQLite schema, then
// run `npm run db:schema` (test/db/schemas-agree.test.ts fails when they drift apart).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const sqliteSchemaPath = `${root}prisma/sqlite/schema.prisma`;
export const postgresSchemaPath = `${root}prisma/postgres/schema.prisma`;

export function postgresSchemaFrom(sqliteSchema: string): string {
  const provider = /(datasource\s+db\s*\{[^}]*provider\s*=\s*)"sqlite"/;
  const output = /(generator\s+client\s*\{[^}]*output\s*=\s*)"\.\.\/\.\.\/server\/db\/generated\/sqlite"/;
  if (!provider.test(sqliteSchema) || !output.test(sqliteSchema)) {
    throw new Error(
      'prisma/sqlite/schema.prisma: expected provider "sqlite" and output ../../server/db/generated/sqlite',
    );
  }
  return sqliteSchema
    .replace(provider, '$1"postgresql"')
    .replace(output, '$1"../../server/db/generated/postgres"');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(postgresSchemaPath, postgresSchemaFrom(readFileSync(sqliteSchemaPath, "utf8")));
  console.log(`wrote ${postgresSchemaPath}`);
}
