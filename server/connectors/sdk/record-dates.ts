import { stampedEvent } from "./record-events";
import { isCreationKey, isTimestamp } from "./when-text";

/**
 * When what happened to a record happened, from its own fields, for its view and page: each
 * event's time under the event's word (`paid_at` → `paid`, `shippedOn` → `shipped`) and each
 * deadline under its own name (`returns_until`), only where present. Creation and last update
 * are left to their own fields. Undefined when the record times nothing.
 *
 * Played (issue 23): "when did my headphones ship?" found no date on the order's page or view,
 * though the system sent `shipped_at`; the model started a tracking action to learn it.
 */
export function recordDates(record: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!isTimestamp(value) || isCreationKey(key) || /^updated/i.test(key)) continue;
    const snake = key.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
    if (/_until$/.test(snake)) out[snake] = value;
    else if (stampedEvent(key)) out[snake.replace(/_(at|on|date)$/, "")] = value;
  }
  return Object.keys(out).length ? out : undefined;
}
