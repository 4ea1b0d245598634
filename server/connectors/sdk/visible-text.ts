/**
 * The one neutraliser of text a person or a model reads: every character that draws nothing, or
 * changes how the text around it is drawn, becomes its code point in plain sight (`<U+202E>`).
 * Bidi controls (U+202A–202E, U+2066–2069, U+200E/F, U+061C) would reorder `acct_4321` into
 * `acct_1234`; zero-width and other format characters would hide a difference between two values
 * that look the same. Agent pages, the confirm screen, the MCP App, emails and the agent's text
 * all import it from here, so a value reads the same on every surface.
 */

// Controls, format characters (bidi, zero-width, soft hyphen, BOM, tags), line and paragraph
// separators, every default-ignorable code point (what Unicode says a renderer draws as nothing
// when it does not support it: U+2065, U+FFF0–FFF8, the U+E0000 block, variation selectors), and
// the blank letters and fillers that draw as nothing.
// Combining marks among them (U+034F, U+180B…) are listed apart from the class: each is matched
// alone, on purpose.
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]|\u034F|[\u180B-\u180D]|\u180F|[\uFE00-\uFE0F]/gu;

// What visibleText shows by its code point: the invisible characters, and a `<` starting `<U+`.
const SHOWN = new RegExp(`<(?=U\\+)|${INVISIBLE.source}`, "gu");

const PLAIN_ASCII = /^[\u0020-\u003b\u003d-\u007e]*$/;

function codePoint(ch: string): string {
  return `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`;
}

/**
 * Text with every invisible or reordering character shown as `<U+XXXX>`, line breaks included.
 * A `<` that already starts `<U+` in the text is shown as `<U+003C>` too, so a shown code point
 * always stands for the character itself, never for text that spells one: the shown text reads
 * back to exactly one original.
 */
export function visibleText(text: string): string {
  // Printable ASCII but `<` holds nothing to show: not scanned with the Unicode classes.
  if (PLAIN_ASCII.test(text)) return text;
  return text.replace(SHOWN, codePoint);
}
