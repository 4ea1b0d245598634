/**
 * A sentence of its own (a record's verdict, a system's message) as a clause inside another:
 * "ord_delivered fits too but the order has already been delivered", not "… but The order has
 * already been delivered." (round 7 quoted the stray capital). The first letter is lowered only
 * where the first word is an ordinary capitalised word followed by a lower-case one; an acronym
 * ("SAVE5 is …"), "I", or a one-word verdict stay as written. The closing full stop goes.
 */
export function inSentence(text: string): string {
  const trimmed = text.trim().replace(/\.+$/, "");
  const m = /^([A-Z][a-z']+)(\s+)([a-z])/.exec(trimmed);
  if (!m || m[1] === "I" || m[1]?.startsWith("I'")) return trimmed;
  return `${trimmed.charAt(0).toLowerCase()}${trimmed.slice(1)}`;
}
