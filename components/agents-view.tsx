"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AgentView } from "@/server/gateway/console/manage-agents";
import { apiGet, apiSend } from "./api-client";
import { ConfirmDialog } from "./confirm-dialog";
import {
  Badge,
  buttonClass,
  Card,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  TableHead,
  Time,
} from "./ui";

type User = { id: string; name: string; email: string; role: string };

/** The faces a key may get, as the console names them; the default is actions and browse. */
const FACE_CHOICES = [
  { face: "actions", label: "Actions", hint: "business actions with approvals" },
  { face: "browse", label: "Browse", hint: "pages, links and forms" },
  {
    face: "script",
    label: "Script",
    hint: "run_script for bulk work; adds its definition to every tools/list",
  },
] as const;
const DEFAULT_FACES = ["actions", "browse"];

/** One key's faces: what its tools/list offers (and what its model reads before each task). */
function AgentFacesForm({ agent }: { agent: AgentView }) {
  const client = useQueryClient();
  const [faces, setFaces] = useState<string[]>(agent.faces ?? DEFAULT_FACES);
  const save = useMutation({
    mutationFn: (next: string[] | null) =>
      apiSend("POST", `/api/console/agents/${agent.id}/faces`, { faces: next }),
    onSettled: () => client.invalidateQueries({ queryKey: ["agents"] }),
  });
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-xs"
      data-testid="agent-faces"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(faces);
      }}
    >
      {FACE_CHOICES.map((c) => (
        <label key={c.face} className="flex items-center gap-1" title={c.hint}>
          <input
            type="checkbox"
            name={`face-${c.face}`}
            checked={faces.includes(c.face)}
            onChange={(e) =>
              setFaces((now) => (e.target.checked ? [...now, c.face] : now.filter((f) => f !== c.face)))
            }
          />
          {c.label}
        </label>
      ))}
      <button
        type="submit"
        disabled={save.isPending || faces.length === 0}
        className={buttonClass("secondary", "sm")}
      >
        Save faces
      </button>
      {agent.faces ? null : <span className="text-slate-600">(default)</span>}
      {save.isSuccess ? (
        <span role="status" data-testid="faces-saved">
          Saved.
        </span>
      ) : null}
      {save.error ? <ErrorState error={save.error} /> : null}
    </form>
  );
}

export function AgentsView() {
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [userId, setUserId] = useState("");
  const [minted, setMinted] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState<"copied" | "select" | null>(null);
  const [revoking, setRevoking] = useState<AgentView | null>(null);
  const data = useQuery({
    queryKey: ["agents"],
    queryFn: () => apiGet<{ agents: AgentView[]; users: User[] }>("/api/console/agents"),
  });
  const create = useMutation({
    mutationFn: () =>
      apiSend<{ agent: AgentView; key: string }>("POST", "/api/console/agents", { name, userId }),
    onSuccess: (r) => {
      setMinted({ name: r.agent.name, key: r.key });
      setName("");
    },
    onSettled: () => client.invalidateQueries({ queryKey: ["agents"] }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiSend("POST", `/api/console/agents/${id}/revoke`),
    onSettled: () => {
      setRevoking(null);
      void client.invalidateQueries({ queryKey: ["agents"] });
    },
  });
  async function copyKey(key: string) {
    try {
      await navigator.clipboard.writeText(key);
      setCopied("copied");
    } catch {
      // No clipboard permission (or an insecure origin): select the key so Ctrl/Cmd+C copies it.
      const el = document.querySelector('[data-testid="minted-key-value"]');
      if (el) window.getSelection()?.selectAllChildren(el);
      setCopied("select");
    }
  }
  return (
    <div className="space-y-6">
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? "this agent"}'s key?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
      >
        <p data-testid="revoke-consequence">
          The key {revoking?.keyPrefix}… stops working at once: every call {revoking?.name ?? "the agent"}{" "}
          makes for {revoking?.userName ?? "its person"} is refused from now on. This cannot be undone; the
          agent needs a new key to work again.
        </p>
      </ConfirmDialog>
      <PageHeader
        title="Agents"
        description="Each agent acts for one person with its own key. The key is shown once when it is created; afterwards only its prefix. Faces are the tools a key's agent sees: actions and browse by default; script is opt-in."
      />
      <Card title="Create an agent">
        <form
          className="grid gap-3 md:grid-cols-[1fr_1fr_auto] md:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <div>
            <label htmlFor="agent-name" className={labelClass}>
              Name
            </label>
            <input
              id="agent-name"
              required
              maxLength={80}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Alice's assistant"
              className={`${inputClass} mt-1`}
            />
          </div>
          <div>
            <label htmlFor="agent-user" className={labelClass}>
              Acts for
            </label>
            <select
              id="agent-user"
              required
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              className={`${inputClass} mt-1`}
            >
              <option value="">choose a person…</option>
              {(data.data?.users ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name} ({u.email}, {u.role})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={create.isPending} className={buttonClass("primary")}>
            Create agent
          </button>
        </form>
        {create.error ? <ErrorState error={create.error} /> : null}
        {minted ? (
          <div
            role="status"
            className="mt-4 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm"
            data-testid="minted-key"
          >
            <p className="font-semibold">Key for {minted.name} — copy it now, it will not be shown again.</p>
            <code
              className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs"
              data-testid="minted-key-value"
            >
              {minted.key}
            </code>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <button
                type="button"
                className={buttonClass("primary", "sm")}
                onClick={() => copyKey(minted.key)}
              >
                Copy key
              </button>
              <button
                type="button"
                className={buttonClass("secondary", "sm")}
                onClick={() => setMinted(null)}
              >
                I have stored it
              </button>
              {copied ? (
                <span role="status" className="text-xs text-emerald-800" data-testid="copy-result">
                  {copied === "copied" ? "Copied to the clipboard." : "Selected: press Ctrl+C (⌘C) to copy."}
                </span>
              ) : null}
            </div>
          </div>
        ) : null}
      </Card>
      {data.isPending ? (
        <LoadingState />
      ) : data.error ? (
        <ErrorState error={data.error} onRetry={() => data.refetch()} />
      ) : data.data.agents.length === 0 ? (
        <EmptyState title="No agents yet">Create one above to give an MCP host a key.</EmptyState>
      ) : (
        <table
          className="stack-on-phone w-full rounded-lg border border-slate-200 bg-white text-sm"
          data-testid="agents-table"
        >
          <TableHead columns={["Agent", "Acts for", "Key", "Faces", "Last used", "Created", ""]} />
          <tbody>
            {data.data.agents.map((a) => (
              <tr key={a.id} className="border-t border-slate-200 align-top" data-testid="agent-row">
                <td className="px-3 py-2 font-medium" data-label="Agent">
                  {a.name}
                </td>
                <td className="px-3 py-2" data-label="Acts for">
                  {a.userName} <span className="text-xs text-slate-600">{a.userEmail}</span>
                </td>
                <td className="px-3 py-2 font-mono text-xs" data-label="Key">
                  {a.keyPrefix === "oauth" ? "connected app (OAuth)" : `${a.keyPrefix}…`}
                </td>
                <td className="px-3 py-2" data-label="Faces">
                  {a.revokedAt || a.keyPrefix === "oauth" ? (
                    <span className="text-xs text-slate-600">{a.faces?.join(", ") ?? "—"}</span>
                  ) : (
                    <AgentFacesForm agent={a} />
                  )}
                </td>
                <td className="px-3 py-2 text-xs" data-label="Last used">
                  <Time iso={a.lastUsedAt} />
                </td>
                <td className="px-3 py-2 text-xs" data-label="Created">
                  <Time iso={a.createdAt} />
                </td>
                <td className="px-3 py-2 md:text-right">
                  {a.revokedAt ? (
                    <span className="text-xs text-slate-700" data-testid="revoked-by">
                      <Badge value="revoked" /> by {a.revokedBy ?? "an admin"} <Time iso={a.revokedAt} />
                    </span>
                  ) : (
                    <button
                      type="button"
                      className={buttonClass("danger", "sm")}
                      disabled={revoke.isPending}
                      onClick={() => setRevoking(a)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
