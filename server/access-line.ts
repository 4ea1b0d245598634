import type { IncomingMessage } from "node:http";

/** Fields added to each open access line, by its request: a line of its own per request. */
const lines = new WeakMap<IncomingMessage, { fields?: Record<string, unknown> }>();

/**
 * `req`'s access line will be written by this process when its response ends (the HTTP server
 * of `serve`): until then, what else a request would log once may go on that line instead.
 */
export function openAccessLine(req: IncomingMessage): void {
  lines.set(req, {});
}

/**
 * Puts `fields` on `req`'s access line: one log line per request instead of two, each object
 * walked by the logger's redaction once. False when that line is not open (no access line of this
 * process, or it was written already) or already carries fields: log them on a line of their own.
 */
export function addToAccessLine(req: IncomingMessage, fields: Record<string, unknown>): boolean {
  const line = lines.get(req);
  if (!line || line.fields) return false;
  line.fields = fields;
  return true;
}

/** The fields added to `req`'s access line, taken as the line is written: nothing is added after. */
export function takeAccessLine(req: IncomingMessage): Record<string, unknown> | undefined {
  const line = lines.get(req);
  lines.delete(req);
  return line?.fields;
}
