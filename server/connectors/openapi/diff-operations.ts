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
      ]);
      out.set(key, { key, label, fingerprint });
    }
  }
  return out;
}

/**
 * What a re-import changes, by operationId (else method and path): operations added, removed,
 * and changed (summary, description, tags, parameters, body, responses or security differ). Shared component
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
  return { added, removed, changed, unchanged: b.size - added.length - changed.length };
}
