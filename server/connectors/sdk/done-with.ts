import { renderSummary } from "./render-decision-summary";

/** A value that is an id or a version stamp, not a label a person would say. */
const ID_LIKE = /^([a-z]+_[a-z0-9_]+|\d{4}-\d\d-\d\dT[\d:.]+Z?)$/;

/**
 * What an applied change was done with, in one line from the summary the person approved (the
 * capability's declaration): its decision, then each choice by its label — a list's entries by
 * their labelled facts, each other field by its shown value — never ids or version stamps. Round
 * 3's model, told "done" and ids, could not tell the user which of its choices were applied.
 * `said`: the answer's message, whose words are not repeated; null when nothing is left to say.
 */
export function doneWith(summary: unknown, said = ""): string | null {
  const r = renderSummary(summary, "action");
  const parts: string[] = [];
  const rows = r.rows;
  const head = r.sentence ?? r.title;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as (typeof rows)[number];
    if (row.depth !== 0) continue;
    if (row.text) {
      // A value the decision already says ("from Store credit") is not said twice.
      if (!ID_LIKE.test(row.text) && !head.includes(row.text)) parts.push(`${row.label}: ${row.text}`);
      continue;
    }
    // A list or object: each entry by its labelled facts (`Signpost Mug, 2`).
    const entries: string[] = [];
    let entry: string[] | null = null;
    for (let j = i + 1; j < rows.length && (rows[j]?.depth ?? 0) > 0; j++) {
      const nested = rows[j] as (typeof rows)[number];
      if (nested.depth === 1 && !nested.text) {
        entry = [];
        entries.push("");
      } else if (nested.depth === 1) entries.push(nested.text);
      else if (nested.depth === 2 && entry && nested.text && !ID_LIKE.test(nested.text) && entry.length < 2) {
        // A whole number after a name is its count ("Signpost Mug ×2").
        entry.push(entry.length && /^\d+$/.test(nested.text) ? `×${nested.text}` : nested.text);
        entries[entries.length - 1] = entry.join(
          entry.length === 2 && /^×\d+$/.test(entry[1] ?? "") ? " " : ", ",
        );
      }
    }
    if (entries.length) parts.push(`${row.label}: ${entries.filter(Boolean).join("; ")}`);
  }
  // The first line already says the decision ("Pay $55.00 from …: done"): not said twice.
  const shown = said.includes(head) ? parts : [head, ...parts];
  return shown.length ? `done with: ${shown.join(" · ")}`.slice(0, 600) : null;
}
