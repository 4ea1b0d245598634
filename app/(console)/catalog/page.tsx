import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { readToolSizes } from "@/app/_lib/tool-sizes";
import { Badge, Card, PageHeader, TableHead, TableScroll } from "@/components/ui";
import { SCRIPT_FUNCTION_NAMES } from "@/mcp/register-script-tools";
import { routeTable } from "@/server/browse/browse-routes";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { getDb } from "@/server/db/client";
import { listCatalogCapabilities } from "@/server/gateway/console/capability-catalog";
import { resolveScriptLimits } from "@/server/script/script-limits";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Catalog" };

/** The catalog, server-rendered: what agents can do, where they can go, and what the tool list costs. */
export default async function CatalogPage() {
  const { ctx } = await requirePageAccess("/catalog", pageRoles.catalog);
  const capabilities = listCatalogCapabilities();
  const sizes = await readToolSizes(ctx);
  const routes = routeTable(await tenantConnectors(getDb(), ctx.tenantId));
  const tenant = await getDb().tenant.findUnique({
    where: { id: ctx.tenantId },
    select: { scriptLimits: true },
  });
  const { limits } = resolveScriptLimits(tenant?.scriptLimits);
  return (
    <div className="space-y-8">
      <PageHeader
        title="Catalog"
        description="Capabilities agents can start, the browse routes they can navigate, what a script can call, and the size of the MCP tool definitions per face."
      />
      <section aria-labelledby="caps-heading">
        <h2 id="caps-heading" className="mb-3 text-sm font-semibold text-slate-700">
          Capabilities ({capabilities.length})
        </h2>
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {capabilities.map((c) => (
            <Card
              key={c.id}
              title={
                <span className="flex flex-wrap items-center gap-2">
                  <code>{c.id}</code>{" "}
                  <span className="font-normal text-slate-600">
                    · {c.connector} · {c.title}
                  </span>
                  <Badge value={c.effect === "write" ? "executing" : "open"} className="ml-auto" />
                </span>
              }
            >
              <div className="space-y-2 text-sm" data-testid="catalog-capability">
                <p className="text-slate-700">{c.description}</p>
                <p>
                  <span className="font-medium">Use when:</span> {c.trigger.use}
                </p>
                <p>
                  <span className="font-medium">Not when:</span> {c.trigger.avoid}
                </p>
                <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs [overflow-wrap:anywhere]">
                  <dt className="text-slate-600">applies to</dt>
                  <dd>{c.appliesTo}</dd>
                  <dt className="text-slate-600">effect</dt>
                  <dd>{c.effect}</dd>
                  <dt className="text-slate-600">approval</dt>
                  <dd>{c.approval}</dd>
                  <dt className="text-slate-600">permission</dt>
                  <dd>
                    <code>{c.permission}</code> · roles {c.roles.join(", ")}
                  </dd>
                  <dt className="text-slate-600">side effects</dt>
                  <dd>{c.sideEffects.length ? c.sideEffects.join("; ") : "none"}</dd>
                  <dt className="text-slate-600">prerequisites</dt>
                  <dd>{c.prerequisites.length ? c.prerequisites.join("; ") : "none"}</dd>
                </dl>
                <details>
                  <summary className="cursor-pointer text-xs text-sky-800">
                    Inputs ({c.inputs.length})
                  </summary>
                  <TableScroll label={`Inputs of ${c.id}`} className="mt-2">
                    <table className="w-full min-w-[32rem] text-xs">
                      <thead className="text-left text-slate-600">
                        <tr>
                          <th className="py-1 font-medium">field</th>
                          <th className="py-1 font-medium">node</th>
                          <th className="py-1 font-medium">required</th>
                          <th className="py-1 font-medium">description</th>
                        </tr>
                      </thead>
                      <tbody>
                        {c.inputs.map((i) => (
                          <tr key={`${i.node}.${i.field}`} className="border-t border-slate-100 align-top">
                            <td className="py-1 font-mono">{i.field}</td>
                            <td className="py-1">{i.node}</td>
                            <td className="py-1">{i.required ? "yes" : "no"}</td>
                            <td className="py-1 text-slate-600">{i.description ?? ""}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                </details>
              </div>
            </Card>
          ))}
        </div>
      </section>
      <section aria-labelledby="routes-heading">
        <h2 id="routes-heading" className="mb-3 text-sm font-semibold text-slate-700">
          Browse routes ({routes.length})
        </h2>
        <TableScroll label="Browse routes">
          <table className="w-full min-w-[40rem] text-sm">
            <TableHead columns={["Pattern", "Title", "Form", "Description"]} />
            <tbody>
              {routes.map((r) => (
                <tr key={r.pattern} className="border-t border-slate-100 align-top">
                  <td className="px-3 py-2 font-mono text-xs">{r.pattern}</td>
                  <td className="px-3 py-2">{r.title}</td>
                  <td className="px-3 py-2">{r.submit ? "yes" : ""}</td>
                  <td className="px-3 py-2 text-xs text-slate-600">{r.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section aria-labelledby="script-heading">
        <h2 id="script-heading" className="mb-3 text-sm font-semibold text-slate-700">
          Script face (<code>run_script</code>)
        </h2>
        <Card title="JavaScript in a WebAssembly sandbox (QuickJS)">
          <div className="space-y-2 text-sm" data-testid="catalog-script">
            <p className="text-slate-700">
              Each function is the same gateway call as the tool it names, for the same agent: permissions,
              approvals, audit (face <code>script</code>) and the call budget hold as for direct calls. No
              network, files, environment or timers beyond a bounded <code>sleep</code>. A rule with verb{" "}
              <code>script</code> on <code>*</code> turns the face off for a role or an agent.
            </p>
            {/* A wrapping row: adjacent code elements alone give a phone no place to break the line. */}
            <p className="flex flex-wrap gap-x-2 gap-y-1">
              <span className="font-medium">Functions:</span>
              {[...SCRIPT_FUNCTION_NAMES, "console.log", "sleep"].map((name) => (
                <code key={name}>{name}</code>
              ))}
            </p>
            <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
              <dt className="text-slate-600">CPU time</dt>
              <dd>{limits.cpuMs} ms</dd>
              <dt className="text-slate-600">wall time</dt>
              <dd>{limits.wallMs / 1000} s</dd>
              <dt className="text-slate-600">memory</dt>
              <dd>{Math.round(limits.memoryBytes / 1024 / 1024)} MiB</dd>
              <dt className="text-slate-600">calls per run</dt>
              <dd>{limits.maxCalls}</dd>
              <dt className="text-slate-600">result / logs</dt>
              <dd>
                {Math.round(limits.resultBytes / 1024)} KiB / {Math.round(limits.logBytes / 1024)} KiB
              </dd>
            </dl>
          </div>
        </Card>
      </section>
      {/* Token counts are for the people who run agents, not for members approving their charges. */}
      {ctx.role === "member" ? null : (
        <section aria-labelledby="sizes-heading">
          <h2 id="sizes-heading" className="mb-3 text-sm font-semibold text-slate-700">
            MCP tool-definition size per face
          </h2>
          {sizes ? (
            <table
              className="w-full max-w-xl overflow-hidden rounded-lg border border-slate-200 bg-white text-sm"
              data-testid="tool-sizes"
            >
              <thead className="bg-slate-50 text-left text-xs text-slate-600">
                <tr>
                  <th className="px-3 py-2 font-medium">Face</th>
                  <th className="px-3 py-2 text-right font-medium">Tools</th>
                  <th className="px-3 py-2 text-right font-medium">Tokens (o200k)</th>
                  <th className="px-3 py-2 text-right font-medium">Bytes</th>
                </tr>
              </thead>
              <tbody>
                {sizes.map((s) => (
                  <tr key={s.face} className="border-t border-slate-100">
                    <td className="px-3 py-2">{s.face}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{s.tools}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{s.tokens}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{s.bytes}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-slate-600">Not measured in this process.</p>
          )}
        </section>
      )}
    </div>
  );
}
