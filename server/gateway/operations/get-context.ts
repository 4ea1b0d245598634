import { findEntity } from "../../connectors/connector-registry";
import type { AnyCapability, MoneyKeys } from "../../connectors/sdk/define-capability";
import type { AnyConnector } from "../../connectors/sdk/define-connector";
import type { NextAction } from "../../connectors/sdk/outcome";
import { adapterForTenant } from "../connector-credentials";
import type { GatewayOutcome } from "../gateway-pipeline";
import { actorOf, type TrustedContext } from "../trusted-context";
import { actionTarget } from "./action-target";
import { approvalWords } from "./approval-words";
import { scopeOf, visible } from "./caller-scope";
import type { GatewayDeps } from "./gateway-deps";
import { getContextInputSchema } from "./operation-schemas";

/** get_context: an action's state, or the view of one entity with the next actions the caller may take. */
export function getContextOperation(deps: GatewayDeps) {
  const { capabilities, engine, credentials, connectorsFor, pipeline } = deps;
  return (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "context.read",
        readOnly: true,
        verb: "navigate",
        schema: getContextInputSchema,
        target: async (input, caller) =>
          input.action_id
            ? actionTarget(deps, caller, input.action_id)
            : {
                target:
                  findEntity(input.entity ?? "", await connectorsFor(caller), input.entity_id)?.entity.uri(
                    String(input.entity_id),
                  ) ?? `entity:${input.entity ?? ""}`,
              },
        run: async (input, caller) => {
          if (input.action_id)
            return engine.getActionContext(
              actorOf(caller),
              input.action_id,
              scopeOf(caller),
            ) as Promise<GatewayOutcome>;
          const id = input.entity_id as string;
          const known = await connectorsFor(caller);
          const found = findEntity(input.entity ?? "", known, id);
          if (!found)
            return {
              outcome: "rejected",
              reason: "unknown_entity",
              // At most 20 names: fifty connected systems must not make a refusal a page long.
              message: `${input.entity ? `No entity ${input.entity.slice(0, 40)}` : `No entity's ids look like ${id.slice(0, 40)}: name it in entity`}; entities: ${known
                .flatMap((c) => c.entities.map((e) => e.name))
                .slice(0, 20)
                .join(", ")}${pageOf(known, input.entity)}`,
              retryable: false,
              next_actions: [],
            };
          const { entity } = found;
          const view =
            entity.roles && !entity.roles.includes(caller.role)
              ? null
              : await entity.view(
                  // The connector list just read, not a second query for it.
                  await adapterForTenant(credentials, caller, found.connector.id, known),
                  actorOf(caller),
                  id,
                );
          if (!view)
            return {
              outcome: "not_found",
              reason: "entity_not_found",
              message: `No ${entity.name} ${id}`,
              retryable: false,
              next_actions: [],
            };
          // Each start says who must approve it, as this caller's calls would be decided.
          const allowedNext = await Promise.all(
            view.next_actions
              .filter((n: NextAction) => {
                const c = capabilities.get(String(n.args?.capability));
                return !c || visible(caller, c);
              })
              .map(async (n: NextAction) => {
                const c =
                  n.tool === "start_action" ? capabilities.get(String(n.args?.capability)) : undefined;
                const approval = c ? await approvalWords(deps.db, caller, c) : null;
                return approval ? { ...n, approval } : n;
              }),
          );
          return {
            outcome: "applied",
            message: `${view.entity} ${id}: ${view.status}`,
            retryable: false,
            entity: view.entity,
            view: { ...view, next_actions: undefined },
            ...moneyOfEntity(capabilities, found.connector.id, entity.name),
            next_actions: allowedNext,
          };
        },
      },
      raw,
    );
}

/**
 * A record's money as its connector's capabilities on that entity declare it (integer minor
 * units of one currency), so its view reads "$249.00", never a bare 24900 (played, round 3).
 * Nothing when they declare none or disagree on the currency: no guessing from key names.
 */
function moneyOfEntity(
  capabilities: ReadonlyMap<string, AnyCapability>,
  connector: string,
  entity: string,
): { money_of?: MoneyKeys } {
  const declared = [...capabilities.values()]
    .filter(
      (c) =>
        c.connector === connector && c.appliesTo.entity.toLowerCase() === entity.toLowerCase() && c.money,
    )
    .map((c) => c.money as MoneyKeys);
  const currencies = new Set(declared.map((m) => m.currency));
  if (currencies.size !== 1) return {};
  return {
    money_of: { keys: [...new Set(declared.flatMap((m) => m.keys))], currency: [...currencies][0] as string },
  };
}

/**
 * Where a record that is no entity has a page of its own (`shop://product/{id}`): set BU's model
 * asked get_context for a product its search had linked, was told only which entities exist, and
 * spent a call finding the page. A route pattern, never the caller's words, is what is named.
 */
function pageOf(known: readonly AnyConnector[], entity: string | undefined): string {
  const said = (entity ?? "").toLowerCase();
  // The noun or its plural ("products"), as findEntity reads an entity's name.
  const nouns = [said, said.endsWith("s") ? said.slice(0, -1) : ""].filter(Boolean);
  // Compared as a whole path segment (never a pattern made of the caller's words).
  const route = known
    .flatMap((c) => c.routes)
    .find((r) => nouns.some((noun) => r.pattern === `${r.pattern.split("://")[0]}://${noun}/{id}`));
  const noun = route?.pattern.split("://")[1]?.split("/")[0];
  return route ? `; a ${noun}'s page: navigate ${route.pattern}` : "";
}
