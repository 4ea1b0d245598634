import { escapeHtml } from "../connectors/sdk/render-decision-summary";
import { visibleText } from "../connectors/sdk/visible-text";

/** Where a quoted line is wrapped: short enough that no mail client wraps it again. */
const WIDTH = 70;

/**
 * The agent's text as one run of visible words: line breaks and invisible characters shown by
 * their code point, and every run of spaces (U+3000 and the other wide or fixed ones included)
 * one plain space, so no padding can push a forged line to where a reader's wrap would start it.
 */
function quotedWords(text: string): string {
  return visibleText(text)
    .replace(/\p{Zs}+/gu, " ")
    .trim();
}

/** Words in lines of at most WIDTH code points; a longer word is cut. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  for (let word of text.split(" ").map((w) => [...w])) {
    while (word.length > WIDTH) {
      if (line.length) lines.push(line.join(""));
      lines.push(word.slice(0, WIDTH).join(""));
      line = [];
      word = word.slice(WIDTH);
    }
    if (line.length && line.length + 1 + word.length > WIDTH) {
      lines.push(line.join(""));
      line = [];
    }
    line = line.length ? [...line, " ", ...word] : word;
  }
  if (line.length || !lines.length) lines.push(line.join(""));
  return lines;
}

/**
 * Agent-written text in a person's channel (an email), inside a visibly delimited quote: every
 * line break and invisible character shown by its code point (`<U+000A>`), runs of spaces made
 * one, and wrapped by us with `│ ` starting every line, so no line of it — however a mail client
 * wraps — can read as the end of the quote or a line of Signpost's own ("Grant or deny: <url>").
 */
export function quotedText(label: string, text: string): string {
  return [
    `┌─ ${label} (written by the agent, not by Signpost) ─`,
    ...wrapped(quotedWords(text)).map((line) => `│ ${line}`),
    "└─ end of the agent's text ─",
  ].join("\n");
}

/** The same quote in an email's HTML: a bordered block, the text escaped, its spaces as sent. */
export function quotedHtml(label: string, text: string): string {
  return `<blockquote style="margin:8px 0;padding:6px 10px;border-left:4px solid #b45309;background:#fffbeb"><div style="font-size:12px;color:#555">${escapeHtml(label)} (written by the agent, not by Signpost)</div><div style="white-space:pre-wrap">${escapeHtml(quotedWords(text))}</div></blockquote>`;
}
