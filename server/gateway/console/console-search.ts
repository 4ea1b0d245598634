import { capabilityTitle } from "../../connectors/connector-registry";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { actionScope } from "./list-actions";

export type SearchHit = {
  kind: "action" | "record" | "person" | "agent";
  /** What it is, in words: "Checkout act_123", "Order ord_paid", "Alice (alice@acme.test)". */
  title: string;
  detail: string;
  href: string;
};

const LIMIT = 10;

/**
 * The console's search box: actions by id, the records they act on by id (orders, tickets —
 * whatever the connectors' entities are), people (the customers agents act for) by name or email,
 * agents by name. Scoped like every list: members find only their own.
 */
export async function consoleSearch(db: Db, ctx: ConsoleContext, raw: string): Promise<SearchHit[]> {
  const q = raw.trim().slice(0, 200);
  if (!q) return [];
  const staff = ctx.role !== "member";
  const [actions, records, people, agents] = await Promise.all([
    db.action.findMany({
      where: { ...actionScope(ctx), id: { contains: q } },
      orderBy: { updatedAt: "desc" },
      take: LIMIT,
    }),
    db.action.findMany({
      where: { ...actionScope(ctx), entityId: { contains: q } },
      orderBy: { updatedAt: "desc" },
      take: 50,
    }),
    staff
      ? db.user.findMany({
          where: { tenantId: ctx.tenantId, OR: [{ name: { contains: q } }, { email: { contains: q } }] },
          take: LIMIT,
          select: { id: true, name: true, email: true, role: true },
        })
      : Promise.resolve([]),
    db.agent.findMany({
      where: { tenantId: ctx.tenantId, name: { contains: q }, ...(staff ? {} : { userId: ctx.userId }) },
      take: LIMIT,
      select: { id: true, name: true, revokedAt: true },
    }),
  ]);
  const hits: SearchHit[] = actions.map((a) => ({
    kind: "action",
    title: `Action ${a.id}`,
    detail: `${capabilityTitle(a.capability)} · ${a.status.replaceAll("_", " ")}`,
    href: `/actions/${encodeURIComponent(a.id)}`,
  }));
  // One hit per record, pointing at its newest action.
  const seen = new Set<string>();
  for (const a of records) {
    const key = `${a.entityType}:${a.entityId}`;
    if (seen.has(key) || seen.size >= LIMIT) continue;
    seen.add(key);
    hits.push({
      kind: "record",
      title: `${a.entityType ?? "Record"} ${a.entityId}`,
      detail: `latest action: ${capabilityTitle(a.capability)} · ${a.status.replaceAll("_", " ")}`,
      href: `/actions/${encodeURIComponent(a.id)}`,
    });
  }
  for (const p of people)
    hits.push({
      kind: "person",
      title: `${p.name} (${p.email})`,
      detail: `${p.role} · their actions`,
      href: `/actions?user=${encodeURIComponent(p.id)}`,
    });
  for (const a of agents)
    hits.push({
      kind: "agent",
      title: `Agent ${a.name}`,
      detail: a.revokedAt ? "revoked" : "active",
      href: staff ? `/monitor?agentId=${encodeURIComponent(a.id)}` : "/actions",
    });
  return hits;
}
