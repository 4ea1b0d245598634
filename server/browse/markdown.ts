/** Small markdown builders: pages are text for a model, so escaping keeps data from faking links. */

export function escapeText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/[\\`*_[\]<>|]/g, (ch) => `\\${ch}`).replace(/\r?\n/g, " ");
}

export function link(label: string, uri: string): string {
  return `[${escapeText(label)}](${uri})`;
}

export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return "_(none)_";
  const head = `| ${headers.join(" | ")} |`;
  const rule = `| ${headers.map(() => "---").join(" | ")} |`;
  return [head, rule, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

export function fieldList(pairs: Array<[string, unknown]>): string {
  return pairs.map(([label, value]) => `- **${label}:** ${escapeText(value)}`).join("\n");
}

export function money(cents: unknown, currency = "USD"): string {
  if (typeof cents !== "number") return escapeText(cents);
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

export interface FormField {
  name: string;
  /** `string`, `integer`, `boolean`, `enum`, `array<...>`, `object`… shown as written. */
  type: string;
  required: boolean;
  description: string;
  value?: unknown;
  /** Allowed values (enums, server-computed options such as addresses or teammates). */
  options?: Array<{ value: string; label?: string }>;
}

/**
 * The form block of browse mode: the submit URI and each field with its current value and
 * `# required — type — description` (enums list their values), as a fenced YAML-ish block.
 */
export function formBlock(uri: string, fields: FormField[]): string {
  const lines = [`uri: ${uri}`, "fields:"];
  for (const field of fields) {
    const value = field.value === undefined || field.value === null ? '""' : JSON.stringify(field.value);
    const parts = [
      field.required ? "required" : "optional",
      field.type,
      field.description.replace(/\n/g, " "),
    ];
    if (field.options?.length) {
      parts.push(
        `one of: ${field.options.map((o) => (o.label && o.label !== o.value ? `${o.value} (${o.label})` : o.value)).join(", ")}`,
      );
    }
    lines.push(`  ${field.name}: ${value}  # ${parts.join(" — ")}`);
  }
  return ["```yaml", ...lines, "```"].join("\n");
}
