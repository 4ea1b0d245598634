import { isTimestamp } from "./when-text";

/**
 * A record's header lines (`- **label:** value`), where fields with nothing in them, or the same
 * point in time, share one line ("- **created at, updated at, version:** …"): a record's
 * `version` that is its `updated_at`, a new record's creation and update, and a line per empty
 * field each said again what a line above said (issue 23). Values that are only the same text
 * ("open" twice) stay apart: they may be different facts.
 */
export function fieldLines() {
  const lines: Array<{ labels: string[]; shown: string; same?: string }> = [];
  return {
    /** `label` and `shown` are markdown already (escaped); `raw` is the value as the system sent it. */
    add(label: string, shown: string, raw?: unknown) {
      const same = sameAs(raw);
      const earlier = same === undefined ? undefined : lines.find((l) => l.same === same);
      if (earlier) earlier.labels.push(label);
      else lines.push({ labels: [label], shown, ...(same === undefined ? {} : { same }) });
    },
    text(): string {
      return lines.map((l) => `- **${l.labels.join(", ")}:** ${l.shown}`).join("\n");
    },
  };
}

/** What makes two fields one line: both empty (""), or the same time (the timestamp); else none. */
function sameAs(raw: unknown): string | undefined {
  if (raw === null || raw === "" || (Array.isArray(raw) && raw.length === 0)) return "";
  return isTimestamp(raw) ? raw : undefined;
}
