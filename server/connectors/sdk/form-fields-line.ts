import type { BrowseBackend } from "./browse-backend";
import { describeInputs, schemaDefault } from "./capability-inputs";
import type { AnyCapability } from "./define-capability";
import { code } from "./markdown";
import { USER_WORDS, userWordsUse } from "./user-words-field";

/**
 * A form's fields as a link to it shows them, in one line: a model read every form before
 * submitting it, only to learn its fields (issue 23: a navigate and a submit per change, where one
 * call would do), and submitted a form without the user's words it had not seen.
 */
export interface LineField {
  name: string;
  required: boolean;
  /** As forms type it (`string`, `boolean`, `array<string>`, `enum`…). */
  type: string;
  /** An enum's values, as they are sent. */
  values?: string[];
  /** The value it takes when not sent, where it has one. */
  default?: unknown;
  /** The field's description: only its clause about the default is shown (what the default means). */
  description?: string;
}

/** At most this many fields are listed; the form itself lists the rest. */
const MAX_FIELDS = 10;

/**
 * One code span (inert, copyable): `` `priority*: low/normal/high/urgent · internal: boolean,
 * default false: the customer sees it · user_words` `` — `*` marks a required field (FIELDS_KEY
 * says so once per page); a string's type is not said; a default is said with what it means
 * where the field's description says so. `—` when the form takes no field.
 */
export function formFieldsLine(fields: readonly LineField[]): string {
  if (!fields.length) return "no fields";
  const shown = fields.slice(0, MAX_FIELDS).map((f) => {
    const kind = f.values?.length
      ? enumValues(f.values)
      : f.type === "string" || f.type === "enum"
        ? ""
        : f.type;
    const parts = [kind, defaultNote(f)].filter(Boolean).join(", ");
    return `${f.name}${f.required ? "*" : ""}${parts ? `: ${parts}` : ""}`;
  });
  if (fields.length > MAX_FIELDS) shown.push(`…${fields.length - MAX_FIELDS} more on the form`);
  return code(shown.join(" · "));
}

/**
 * What a list of forms' lines says once: how to read them, and what the user's words do.
 * `everyLine`: every form takes the user's words and its line does not repeat the field; `tool`:
 * the action face's call that starts a line's capability, said once for all.
 */
export function fieldsKey(words: boolean, everyLine = false, tool?: string): string {
  const or = tool ? ` ${startsLineCapability(tool)}` : "";
  if (everyLine)
    return `Submit a line's form (* required) with ${USER_WORDS}: the user's request verbatim; it fills fields; it runs at once unless someone must approve${or}.`;
  return `Submit from the line (* required${words ? `; ${USER_WORDS}: the user's request verbatim: it fills fields; it runs at once unless someone must approve` : ""}).`;
}

/** The key's note on starting a line's capability by `tool` instead (record-answer.ts rewords it). */
export function startsLineCapability(tool: string): string {
  return `(or ${tool} the line's capability with entity_id)`;
}

/** Slashes between values (a span shows `|` escaped), commas where a value holds a slash. */
function enumValues(values: readonly string[]): string {
  return values.join(values.some((v) => v.includes("/")) ? ", " : "/");
}

/** "default false: the customer sees it" (the description's own clause), else "default false". */
function defaultNote(field: LineField): string {
  if (field.default === undefined) return "";
  const clause = field.description
    ?.split(/[;()]/)
    .map((c) => c.trim())
    .find((c) => /^default\b/i.test(c));
  return clause ?? `default ${JSON.stringify(field.default)}`;
}

/**
 * The fields of a capability's form: its nodes' inputs in flow order, without the one its URI
 * already gives (the record the form is about), and the user's words where they decide whether
 * the change runs at once (user-words-field.ts).
 */
export async function capabilityFormFields(
  backend: BrowseBackend,
  capabilityId: string,
  bound?: string,
): Promise<LineField[] | null> {
  const capability = (await backend.connectors())
    .flatMap((c) => c.capabilities)
    .find((c) => c.id === capabilityId);
  if (!capability) return null;
  const fields: LineField[] = describeInputs(capability)
    .filter((input) => input.field !== bound)
    .map((input) => ({
      name: input.field,
      required: input.required,
      type: input.type,
      ...(input.values ? { values: input.values } : {}),
      ...defaultOf(capability, input.field),
      ...(input.description ? { description: input.description } : {}),
    }));
  if (await userWordsUse(backend, capabilityId))
    fields.push({ name: USER_WORDS, required: false, type: "string" });
  return fields;
}

function defaultOf(capability: AnyCapability, field: string): { default?: unknown } {
  for (const node of capability.nodes) {
    const schema = node.fields?.[field];
    if (!schema) continue;
    const value = schemaDefault(schema);
    return value === undefined ? {} : { default: value };
  }
  return {};
}
