"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ImportSummary } from "@/server/gateway/console/import-openapi-connector";
import { apiSend } from "./api-client";
import { buttonClass, Card, ErrorState, inputClass, labelClass } from "./ui";

const ROLES = ["admin", "support", "member"] as const;

/** What a preview or an import says: the surface, what changes, what was skipped, which secrets to set. */
function Summary({
  s,
  reads,
  onReads,
}: {
  s: ImportSummary;
  reads: string[];
  onReads: (reads: string[]) => void;
}) {
  return (
    <div className="space-y-2 text-sm [overflow-wrap:anywhere]" role="status" data-testid="import-summary">
      <p>
        <strong>{s.applied ? "Imported" : "Preview"}:</strong> {s.title} (<code>{s.connector}://</code>,
        OpenAPI {s.sourceVersion}): {s.report.listings} listings, {s.report.details} detail pages,{" "}
        {s.report.forms} forms.
        {s.applied
          ? " Writes wait for a permission rule and a person's approval."
          : " Nothing was changed yet."}
      </p>
      {s.diff ? (
        <ul className="font-mono text-xs">
          {s.diff.added.map((l) => (
            <li key={`a${l}`}>+ {l}</li>
          ))}
          {s.diff.removed.map((l) => (
            <li key={`r${l}`}>- {l}</li>
          ))}
          {s.diff.changed.map((l) => (
            <li key={`c${l}`}>~ {l}</li>
          ))}
          {s.diff.security.map((l) => (
            <li key={`s${l}`}>~ {l}</li>
          ))}
          <li>{s.diff.unchanged} operation(s) unchanged</li>
        </ul>
      ) : null}
      {s.secretChanges.length ? (
        <div>
          <strong>Where secrets go changes</strong>
          {s.applied ? ", so these were cleared" : ", so the import clears these"} (set them again for the new
          destination):
          <ul className="font-mono text-xs">
            {s.secretChanges.map((c) => (
              <li key={c.secret}>
                {c.secret}: {c.change}
                {s.secretsToClear.includes(c.secret) ? " (cleared)" : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {s.warnings.length ? (
        <details>
          <summary>
            {s.warnings.length} warning(s): not valid OpenAPI for a strict validator, imported as a mock
            server reads it
          </summary>
          <ul className="font-mono text-xs">
            {s.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {s.report.skippedCount ? (
        <details>
          <summary>{s.report.skippedCount} operation(s) skipped</summary>
          <ul className="text-xs">
            {s.report.skipped.map((k) => (
              <li key={`${k.method} ${k.path}`}>
                <code>
                  {k.method} {k.path}
                </code>
                : {k.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {s.report.suggestedReads.length ? (
        <fieldset data-testid="import-reads">
          <legend>
            POSTs that look like reads. Each stays a write behind a grant and an approval unless marked here;
            a marked one sends at once when an agent submits it and shows the answer. Mark only what changes
            nothing.
          </legend>
          <ul className="text-xs">
            {s.report.suggestedReads.map((r) => (
              <li key={r.id}>
                <label className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={s.applied ? r.marked : reads.includes(r.id)}
                    disabled={s.applied}
                    onChange={(e) =>
                      onReads(e.target.checked ? [...reads, r.id] : reads.filter((x) => x !== r.id))
                    }
                  />
                  <code>{r.id}</code> (POST {r.path})
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
      {s.report.secrets.length ? (
        <p>
          Secrets to set below, on the connector's card:{" "}
          {s.report.secrets.map((x) => `${x.name} (${x.description})`).join("; ")}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * "Add a system": an admin uploads an OpenAPI document (or names its URL), previews what it
 * becomes, then imports it. The new connector's card, with its secrets, appears below.
 */
export function AddSystemForm() {
  const client = useQueryClient();
  const [id, setId] = useState("");
  const [baseUrl, setBaseUrl] = useState("");
  const [url, setUrl] = useState("");
  const [document, setDocument] = useState<string | null>(null);
  const [roles, setRoles] = useState<string[]>(["admin", "support"]);
  // POSTs the admin marks as reads among the preview's suggestions (sent as readOperations).
  const [reads, setReads] = useState<string[]>([]);
  const send = useMutation({
    mutationFn: (apply: boolean): Promise<ImportSummary> =>
      apiSend<ImportSummary>("POST", "/api/console/config/import", {
        id,
        baseUrl,
        readRoles: roles,
        // Only what the last preview suggested: a mark left over from another document is no id of this one.
        readOperations: reads.filter((r) => send.data?.report.suggestedReads.some((x) => x.id === r)),
        apply,
        ...(document !== null ? { document } : { url }),
      }),
    onSuccess: (s) => {
      if (s.applied) client.invalidateQueries({ queryKey: ["connectors"] });
    },
  });
  const previewed = send.data && !send.data.applied;
  return (
    <Card title="Add a system">
      <form
        className="grid gap-3 md:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate(Boolean(previewed));
        }}
      >
        <div>
          <label htmlFor="import-id" className={labelClass}>
            Id (its URI scheme)
          </label>
          <input
            id="import-id"
            className={inputClass}
            value={id}
            onChange={(e) => setId(e.target.value)}
            required
          />
        </div>
        <div>
          <label htmlFor="import-base" className={labelClass}>
            Base URL of the API
          </label>
          <input
            id="import-base"
            className={inputClass}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            required
          />
        </div>
        <div>
          <label htmlFor="import-file" className={labelClass}>
            OpenAPI document (JSON or YAML)
          </label>
          <input
            id="import-file"
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml"
            className="text-sm"
            onChange={async (e) => setDocument((await e.target.files?.[0]?.text()) ?? null)}
          />
        </div>
        <div>
          <label htmlFor="import-url" className={labelClass}>
            …or its URL
          </label>
          <input
            id="import-url"
            className={inputClass}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={document !== null}
          />
        </div>
        <fieldset className="md:col-span-2">
          <legend className={labelClass}>Who may read it (change later in Permissions)</legend>
          <div className="flex gap-4 text-sm">
            {ROLES.map((r) => (
              <label key={r} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={roles.includes(r)}
                  onChange={(e) => setRoles(e.target.checked ? [...roles, r] : roles.filter((x) => x !== r))}
                />
                {r}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="md:col-span-2 flex flex-wrap gap-3">
          <button type="submit" className={buttonClass("primary")} disabled={send.isPending}>
            {send.isPending ? "Working…" : previewed ? "Import" : "Preview"}
          </button>
        </div>
      </form>
      {send.data ? <Summary s={send.data} reads={reads} onReads={setReads} /> : null}
      {send.error ? <ErrorState error={send.error} /> : null}
    </Card>
  );
}
