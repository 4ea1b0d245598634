import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client";
import { isUniqueViolation } from "../../engine/effect-ledger";
import { consoleRoleSchema } from "../console-session";
import { hashPassword } from "../passwords";
import { type ConsoleResult, fail, ok } from "./console-result";
import { type AdminActor, recordConsoleAudit } from "./record-console-audit";

export const tenantIdSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "tenant ids are lowercase slugs (a-z, 0-9, -; up to 40)");

export const createTenantInputSchema = z
  .object({ id: tenantIdSchema, name: z.string().trim().min(1).max(100) })
  .strict();

export const createUserInputSchema = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    name: z.string().trim().min(1).max(100),
    role: consoleRoleSchema,
    password: z.string().min(8, "passwords need at least 8 characters").max(1024).optional(),
  })
  .strict();

/** Creates a tenant (`tenant.created`); an existing id is a conflict. */
export async function createTenant(
  db: Db,
  actor: AdminActor,
  input: z.infer<typeof createTenantInputSchema>,
): Promise<ConsoleResult<{ id: string; name: string }>> {
  const startedAt = Date.now();
  try {
    await db.tenant.create({ data: { id: input.id, name: input.name } });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("conflict", `A tenant "${input.id}" already exists.`);
    throw error;
  }
  await recordConsoleAudit(db, actor, {
    operation: "tenant.created",
    target: input.id,
    arguments: { id: input.id, name: input.name },
    outcome: "applied",
    startedAt,
  });
  return ok({ id: input.id, name: input.name });
}

/**
 * Adds a person to the actor's tenant (`user.created`, never with the password). Without a
 * password one is generated and returned here, once; the database keeps only its hash.
 */
export async function createUser(
  db: Db,
  actor: AdminActor,
  input: z.infer<typeof createUserInputSchema>,
): Promise<
  ConsoleResult<{ user: { id: string; email: string; name: string; role: string }; password?: string }>
> {
  const startedAt = Date.now();
  if (!(await db.tenant.findUnique({ where: { id: actor.tenantId } })))
    return fail("not_found", `No tenant "${actor.tenantId}".`);
  const generated = input.password ? undefined : randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(input.password ?? (generated as string));
  let user: { id: string };
  try {
    user = await db.user.create({
      data: {
        tenantId: actor.tenantId,
        email: input.email,
        name: input.name,
        role: input.role,
        passwordHash,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("conflict", `A user with email ${input.email} already exists.`);
    throw error;
  }
  await recordConsoleAudit(db, actor, {
    operation: "user.created",
    target: user.id,
    arguments: {
      email: input.email,
      name: input.name,
      role: input.role,
      sign_in: input.password ? "given" : "generated",
    },
    outcome: "applied",
    startedAt,
  });
  return ok({
    user: { id: user.id, email: input.email, name: input.name, role: input.role },
    ...(generated ? { password: generated } : {}),
  });
}
