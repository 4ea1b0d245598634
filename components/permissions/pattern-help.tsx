"use client";
import type { PermissionGrammar } from "./rule-draft";

/** The one pattern language, as server/gateway/permission-pattern.ts reads it. */
export function PatternHelp({ grammar }: { grammar: PermissionGrammar }) {
  const code = "rounded bg-slate-100 px-1 font-mono text-xs";
  // Examples from what is installed, so they name this tenant's systems, not a demo's.
  const id = grammar.capabilities[0] ?? "close_account";
  const glob = `${id.split("_")[0]}_*`;
  const [scheme = "crm", other = scheme] = grammar.schemes;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="pattern-help">
      <summary className="cursor-pointer font-semibold">Pattern language</summary>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
        <li>
          <code className={code}>*</code> or <code className={code}>**</code> alone: everything.
        </li>
        <li>
          <code className={code}>capability:&lt;id&gt;</code> — one capability;{" "}
          <code className={code}>*</code> in the id is any run of characters (
          <code className={code}>capability:{glob}</code>). A bare id such as{" "}
          <code className={code}>{id}</code> is saved as <code className={code}>capability:{id}</code>. Ids:{" "}
          {grammar.capabilities.join(", ")}.
        </li>
        <li>
          <code className={code}>&lt;scheme&gt;://&lt;path&gt;</code> — pages and records:{" "}
          <code className={code}>*</code> is any run within one path segment (
          <code className={code}>{scheme}://&lt;entity&gt;/*</code>), <code className={code}>**</code> any
          depth (<code className={code}>{other}://**</code>). A query is part of the target, so{" "}
          <code className={code}>{scheme}://*</code> also covers{" "}
          <code className={code}>{scheme}://&lt;listing&gt;?status=open</code>. Schemes:{" "}
          {grammar.schemes.join(", ")}.
        </li>
        <li>
          <code className={code}>search:&lt;scheme&gt;</code> or <code className={code}>search:*</code> —
          browse search; <code className={code}>capabilities</code> — the capability catalog.
        </li>
        <li>
          No spaces, no <code className={code}>***</code>, no route placeholders like{" "}
          <code className={code}>{"{id}"}</code>, at most 300 characters. A pattern that could match nothing
          Signpost serves is refused when you save it, with the reason.
        </li>
      </ul>
    </details>
  );
}
