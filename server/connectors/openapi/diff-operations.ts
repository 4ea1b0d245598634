import type { OpenAPIV3 } from "openapi-types";

/** One operation as a re-import compares it: its method and path, and a fingerprint of its shape. */
interface OperationShape {
  key: string;
  label: string;
  fingerprint: string;
}

export interface OperationsDiff {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: number;
  /**
   * Security schemes added, removed or changed (type, where the key goes, OAuth2 flows and their
   * token URLs), and the document's default security or servers: each a line for the preview.
   */
  security: string[];
}

/** Lines for what differs in the document's security schemes, default security and servers. */
function securityDiff(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const schemesOf = (d: Record<string, unknown>) =>
    ((d.components as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes ??
      {}) as Record<string, unknown>;
  const a = schemesOf(before);
  const b = schemesOf(after);
  const lines: string[] = [];
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const label = name.slice(0, 60);
    if (!(name in a)) lines.push(`security scheme ${label} added`);
    else if (!(name in b)) lines.push(`security scheme ${label} removed`);
    else if (JSON.stringify(a[name]) !== JSON.stringify(b[name])) {
      const url = (d: unknown) =>
        (d as { flows?: { clientCredentials?: { tokenUrl?: unknown } } })?.flows?.clientCredentials?.tokenUrl;
      const [from, to] = [url(a[name]), url(b[name])];
      lines.push(
        from !== to
          ? `security scheme ${label}: token URL ${String(from).slice(0, 200)} → ${String(to).slice(0, 200)}`
          : `security scheme ${label} changed`,
      );
    }
  }
  if (JSON.stringify(before.security ?? null) !== JSON.stringify(after.security ?? null))
    lines.push("the document's default security changed");
  if (JSON.stringify(before.servers ?? null) !== JSON.stringify(after.servers ?? null))
    lines.push("the document's servers changed");
  return lines;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function shapes(document: Record<string, unknown>): Map<string, OperationShape> {
  const out = new Map<string, OperationShape>();
  const paths = (document.paths ?? {}) as Record<string, OpenAPIV3.PathItemObject>;
  for (const [path, item] of Object.entries(paths)) {
    if (!item || typeof item !== "object") continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const label = `${method.toUpperCase()} ${path}${op.operationId ? ` (${op.operationId})` : ""}`;
      const key = op.operationId ?? `${method} ${path}`;
      // Its words (titles, search keywords), parameters, body, responses and security as stored
      // ($refs kept): a change to any of them is a change.
      const fingerprint = JSON.stringify([
        method,
        path,
        op.summary ?? null,
        op.description ?? null,
        op.tags ?? null,
        item.parameters ?? null,
        op.parameters ?? null,
        op.requestBody ?? null,
        op.responses ?? null,
        op.security ?? null,
        item.servers ?? null,
        op.servers ?? null,
      ]);
      out.set(key, { key, label, fingerprint });
    }
  }
  return out;
}

/**
 * What a re-import changes, by operationId (else method and path): operations added, removed,
 * and changed (summary, description, tags, parameters, body, responses, security or servers
 * differ), and what changed in the security schemes (token URLs included). Shared component
 * schemas that changed show as no change here unless an operation's own text changed: the
 * report says so, and the re-import applies them all the same.
 */
export function diffOperations(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): OperationsDiff {
  const a = shapes(before);
  const b = shapes(after);
  const added = [...b.values()].filter((s) => !a.has(s.key)).map((s) => s.label);
  const removed = [...a.values()].filter((s) => !b.has(s.key)).map((s) => s.label);
  const changed = [...b.values()]
    .filter((s) => a.has(s.key) && a.get(s.key)?.fingerprint !== s.fingerprint)
    .map((s) => s.label);
  return {
    added,
    removed,
    changed,
    unchanged: b.size - added.length - changed.length,
    security: securityDiff(before, after),
  };
}
