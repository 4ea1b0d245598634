import { words } from "./route-words";

/** How a search's words are compared with a filter's name, values and labels (filter-words.ts). */

/** Tokens of a value or label: `pending_payment` → pending, payment; `inProgress` → in, progres. */
export function tokens(text: string): string[] {
  return words(text.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-./]+/g, " "));
}

/** A filter's name as a person says it: `team_id` → "team". */
export function filterName(key: string): string {
  return key.replace(/_?(id|ids)$/i, "").replace(/[_-]+/g, " ") || key;
}

/** Values no word can name: switches (1/true), numbers, single letters. */
export const NOT_A_NAME = /^(true|false|yes|no|on|off|\d+|.)$/i;
