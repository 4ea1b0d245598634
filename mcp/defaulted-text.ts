type Json = Record<string, unknown>;

/**
 * The line that says which fields the action filled from its own default (the user named none),
 * with the other choices and their prices, so the agent can ask before the user approves:
 * "defaults (the user named none; ask if it matters): <field> = <value> (other choices:
 * `<choice>` $12.00, …)"; a default that is the only choice is said on its own line, with nothing
 * to ask. Null when nothing was defaulted.
 */
export function defaultedLine(value: unknown, asMoney: (v: unknown, key?: string) => unknown): string | null {
  if (!value || typeof value !== "object") return null;
  const parts = Object.entries(value as Record<string, Defaulted[1]>);
  // A default that is the only choice offered leaves nothing to ask (set AZ: the one teammate who
  // can be taken off a ticket, said as "ask them if it matters", sent a careful model to the user).
  const only = parts.filter(([, d]) => onlyChoice(d.value, d.choices ?? []));
  const lines = [
    said(
      parts.filter((p) => !only.includes(p)),
      asMoney,
      "defaults (the user named none; ask them if it matters)",
    ),
    said(only, asMoney, "the only choice (the user named none)"),
  ].filter(Boolean);
  return lines.length ? lines.join("\n") : null;
}

type Defaulted = [string, { value?: unknown; choices?: unknown[]; rule?: string }];

function said(parts: Defaulted[], asMoney: (v: unknown, key?: string) => unknown, head: string): string {
  const each = parts.map(([field, d]) => {
    const shown = asMoney(d.value, field);
    const others = otherChoices(d.value, d.choices ?? [], asMoney);
    // A money value a patch sends in minor units is said as sent too (round 25: a model sent
    // 12 for $12.00 and read $0.12 back); and how the value was chosen, where known.
    const sent = shown !== d.value && typeof d.value === "number" ? `sent as ${d.value}` : "";
    const notes = [d.rule ?? "", sent, others.length ? `other choices: ${others.join(", ")}` : ""].filter(
      Boolean,
    );
    return `${field} = ${typeof shown === "object" ? JSON.stringify(shown) : String(shown)}${
      notes.length ? ` (${notes.join("; ")})` : ""
    }`;
  });
  return each.length ? `${head}: ${each.join("; ")}` : "";
}

/** Every choice offered is the default itself: a value, or a row holding it (`{id, name}`). */
function onlyChoice(chosen: unknown, choices: unknown[]): boolean {
  return (
    choices.length > 0 &&
    choices.every(
      (c) => c === chosen || (!!c && typeof c === "object" && Object.values(c as Json).includes(chosen)),
    )
  );
}

/** Each other choice by the value a patch sends, with its price when a row carries one. */
function otherChoices(chosen: unknown, choices: unknown[], asMoney: (v: unknown) => unknown): string[] {
  const rows = choices.filter((c): c is Json => !!c && typeof c === "object" && !Array.isArray(c));
  if (rows.length < choices.length)
    return choices
      .filter((c) => c !== chosen && ["string", "number", "boolean"].includes(typeof c))
      .map((c) => `\`${c}\``);
  // The key holding the value a patch sends: the one whose value is the chosen default.
  const key = rows.flatMap((r) => Object.keys(r).filter((k) => r[k] === chosen))[0];
  if (!key) return [];
  return rows
    .filter((r) => r[key] !== chosen)
    .slice(0, 10)
    .map((r) => {
      const formatted = asMoney(r) as Json;
      const price = Object.keys(r).find((k) => typeof r[k] === "number" && formatted[k] !== r[k]);
      return `\`${String(r[key])}\`${price ? ` ${String(formatted[price])}` : ""}`;
    });
}
