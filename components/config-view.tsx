"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type {
  ConnectionTest,
  ConnectorSettingsUpdate,
  ConnectorView,
} from "@/server/gateway/console/manage-connectors";
import { AddSystemForm } from "./add-system-form";
import { apiGet, apiSend } from "./api-client";
import {
  Badge,
  buttonClass,
  Card,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  Time,
} from "./ui";

function SecretRow({ connector, secret }: { connector: string; secret: ConnectorView["secrets"][number] }) {
  const client = useQueryClient();
  const [value, setValue] = useState("");
  const save = useMutation({
    mutationFn: () => apiSend("PUT", `/api/console/config/${connector}/secrets/${secret.name}`, { value }),
    // The field is cleared at once: the value is never kept in the page after it was sent.
    onSuccess: () => setValue(""),
    onSettled: () => client.invalidateQueries({ queryKey: ["connectors"] }),
  });
  const id = `secret-${connector}-${secret.name}`;
  return (
    <form
      className="grid gap-2 md:grid-cols-[12rem_1fr_auto] md:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="text-sm">
        <p className="font-mono break-all">{secret.name}</p>
        <p className="text-xs text-slate-600" data-testid={`secret-state-${connector}-${secret.name}`}>
          {secret.set ? (
            <>
              set · changed <Time iso={secret.updatedAt} />
              {secret.updatedBy ? ` by ${secret.updatedBy}` : ""}
            </>
          ) : (
            "not set"
          )}
        </p>
      </div>
      <div>
        <label htmlFor={id} className={labelClass}>
          New value (write-only)
        </label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className={`${inputClass} mt-1`}
        />
      </div>
      <button type="submit" disabled={save.isPending || !value} className={buttonClass("primary")}>
        {secret.set ? "Replace" : "Set"}
      </button>
      {save.error ? <ErrorState error={save.error} /> : null}
      {save.isSuccess ? (
        <p role="status" className="text-xs text-emerald-700 md:col-span-3">
          Saved. The value cannot be read back.
        </p>
      ) : null}
    </form>
  );
}

function ConnectorCard({ c }: { c: ConnectorView }) {
  const client = useQueryClient();
  const [baseUrl, setBaseUrl] = useState(typeof c.settings.baseUrl === "string" ? c.settings.baseUrl : "");
  const [enabled, setEnabled] = useState(c.enabled);
  // Headers an imported API needs with every request: set once here, shown (they are no secrets).
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      (c.declaredSettings ?? []).map((s) => [
        s.name,
        typeof c.settings[s.name] === "string" ? (c.settings[s.name] as string) : "",
      ]),
    ),
  );
  const test = useMutation({
    mutationFn: () => apiSend<ConnectionTest>("POST", `/api/console/config/${c.connector}/test`),
  });
  const settings = useMutation({
    mutationFn: () =>
      apiSend<ConnectorSettingsUpdate>("PUT", `/api/console/config/${c.connector}/settings`, {
        baseUrl,
        enabled,
        ...(c.declaredSettings?.length ? { values } : {}),
      }),
    // A test result from before the change no longer describes the connector.
    onSuccess: () => test.reset(),
    onSettled: () => client.invalidateQueries({ queryKey: ["connectors"] }),
  });
  const cleared = settings.data?.secretsCleared ?? [];
  return (
    <Card
      title={
        <span className="flex items-center justify-between">
          <span className="font-mono">{c.connector}</span>
          <Badge value={c.enabled ? "enabled" : "disabled"} />
        </span>
      }
    >
      <div className="space-y-5" data-testid={`connector-${c.connector}`}>
        {c.warnings?.length ? (
          <details className="text-sm">
            <summary>
              {c.warnings.length} import warning(s): its document is not valid OpenAPI for a strict validator
            </summary>
            <ul className="font-mono text-xs [overflow-wrap:anywhere]">
              {c.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </details>
        ) : null}
        <form
          className="grid gap-2 md:grid-cols-[1fr_auto] md:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            settings.mutate();
          }}
        >
          <div>
            <label htmlFor={`base-${c.connector}`} className={labelClass}>
              Legacy API base URL
            </label>
            <input
              id={`base-${c.connector}`}
              type="url"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              placeholder="http://127.0.0.1:4010"
              className={`${inputClass} mt-1 font-mono`}
            />
          </div>
          {(c.declaredSettings ?? []).map((s) => (
            <div key={s.name} className="md:col-span-2">
              <label htmlFor={`setting-${c.connector}-${s.name}`} className={labelClass}>
                <span className="font-mono">{s.name}</span>
                {values[s.name] ? "" : " (not set: requests are not sent until it is)"}
              </label>
              <input
                id={`setting-${c.connector}-${s.name}`}
                type="text"
                maxLength={500}
                value={values[s.name] ?? ""}
                onChange={(e) => setValues((v) => ({ ...v, [s.name]: e.target.value }))}
                className={`${inputClass} mt-1 font-mono`}
              />
              <p className="mt-1 text-xs text-slate-600">{s.description}</p>
            </div>
          ))}
          <button
            type="submit"
            disabled={settings.isPending || !baseUrl}
            className={buttonClass("secondary")}
          >
            Save settings
          </button>
          <label className="flex items-center gap-2 text-sm md:col-span-2">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Enabled: agents may use this connector
          </label>
          <p className="text-xs text-slate-600 md:col-span-2">
            Changing the address to another host, port or scheme clears this connector&apos;s secrets: a key
            is only ever sent to the address it was entered for.
          </p>
          {settings.error ? <ErrorState error={settings.error} /> : null}
          {settings.data ? (
            <p
              role="status"
              data-testid={`settings-result-${c.connector}`}
              className={`text-sm md:col-span-2 ${
                cleared.length
                  ? "rounded border border-amber-300 bg-amber-50 p-2 text-amber-900"
                  : "text-emerald-700"
              }`}
            >
              {settings.data.message}
            </p>
          ) : null}
        </form>
        <div className="space-y-3">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Secrets</h3>
          {c.secrets.map((s) => (
            <SecretRow key={s.name} connector={c.connector} secret={s} />
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={test.isPending}
            onClick={() => test.mutate()}
          >
            {test.isPending ? "Testing…" : "Test connection"}
          </button>
          {test.data ? (
            <span
              role="status"
              className="flex min-w-0 flex-wrap items-center gap-2 text-sm [overflow-wrap:anywhere]"
              data-testid={`test-result-${c.connector}`}
            >
              <Badge
                value={test.data.ok ? "connected" : test.data.result === "disabled" ? "disabled" : "failed"}
              />{" "}
              {test.data.message}{" "}
              {test.data.status ? `(HTTP ${test.data.status}, ${test.data.latencyMs} ms)` : ""}
            </span>
          ) : null}
          {test.error ? <ErrorState error={test.error} /> : null}
        </div>
      </div>
    </Card>
  );
}

export function ConfigView() {
  const q = useQuery({
    queryKey: ["connectors"],
    queryFn: () => apiGet<{ connectors: ConnectorView[] }>("/api/console/config").then((r) => r.connectors),
  });
  return (
    <div>
      <PageHeader
        title="Connectors and secrets"
        description="Each connector's settings and secrets. Secrets are write-only: you can set or replace one, never read it back. Every change is audited."
      />
      <div className="mb-6">
        <AddSystemForm />
      </div>
      {q.isPending ? (
        <LoadingState />
      ) : q.error ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          {q.data.map((c) => (
            <ConnectorCard key={c.connector} c={c} />
          ))}
        </div>
      )}
    </div>
  );
}
