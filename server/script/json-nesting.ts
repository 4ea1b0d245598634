/** Arrays and objects nested in a result or a call's arguments: far beyond any real answer. */
export const MAX_NESTING = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, by one linear scan (brackets
 * inside strings do not count). Checked before a parse: V8 cannot hand a value nested a few
 * thousand deep from one thread to another, and a deep parse is wasted work.
 */
export function jsonNestsDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
