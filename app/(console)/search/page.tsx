import type { Metadata } from "next";
import Link from "next/link";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { EmptyState, PageHeader } from "@/components/ui";
import { getDb } from "@/server/db/client";
import { consoleSearch } from "@/server/gateway/console/console-search";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Search" };

const KIND_LABELS = {
  action: "Actions",
  record: "Records agents acted on",
  person: "People",
  agent: "Agents",
};

/** Results of the search box in the navigation, grouped by kind. */
export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ctx } = await requirePageAccess("/search", pageRoles.search);
  const raw = (await searchParams).q;
  const q = typeof raw === "string" ? raw.slice(0, 200) : "";
  const hits = await consoleSearch(getDb(), ctx, q);
  const groups = (Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[])
    .map((kind) => ({ kind, hits: hits.filter((h) => h.kind === kind) }))
    .filter((g) => g.hits.length > 0);
  return (
    <div className="max-w-3xl">
      <PageHeader
        title={q ? `Search: ${q}` : "Search"}
        description="Actions by id, the records they act on, people by name or email, agents by name."
      />
      <form action="/search" className="mb-6 flex gap-2">
        <label htmlFor="search-page-q" className="sr-only">
          Search
        </label>
        <input
          id="search-page-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={200}
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        />
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white">
          Search
        </button>
      </form>
      {groups.length === 0 ? (
        <EmptyState
          title={q ? `Nothing matches “${q}”` : "Type a record id, a person, an agent or an action id"}
        />
      ) : (
        <div className="space-y-6" data-testid="search-results">
          {groups.map((g) => (
            <section key={g.kind} aria-labelledby={`hits-${g.kind}`}>
              <h2 id={`hits-${g.kind}`} className="mb-2 text-sm font-semibold text-slate-700">
                {KIND_LABELS[g.kind]}
              </h2>
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
                {g.hits.map((h) => (
                  <li
                    key={`${h.kind}:${h.href}:${h.title}`}
                    className="px-3 py-2 text-sm [overflow-wrap:anywhere]"
                  >
                    <Link
                      href={h.href}
                      className="font-medium text-sky-800 underline-offset-2 hover:underline"
                    >
                      {h.title}
                    </Link>
                    <span className="block text-xs text-slate-600">{h.detail}</span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
