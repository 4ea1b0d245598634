import { escapeHtml } from "../connectors/sdk/render-decision-summary";
import { visibleText } from "../connectors/sdk/visible-text";

/**
 * Agent-written text in a person's channel (an email), inside a visibly delimited quote: on one
 * block, every line break and invisible character shown by its code point (`<U+000A>`), so it
 * can never end the quote and start a line of Signpost's own ("Grant or deny: <url>").
 */
export function quotedText(label: string, text: string): string {
  return [
    `┌─ ${label} (written by the agent, not by Signpost) ─`,
    `│ ${visibleText(text)}`,
    "└─ end of the agent's text ─",
  ].join("\n");
}

/** The same quote in an email's HTML: a bordered block, the text escaped and on one line. */
export function quotedHtml(label: string, text: string): string {
  return `<blockquote style="margin:8px 0;padding:6px 10px;border-left:4px solid #b45309;background:#fffbeb"><div style="font-size:12px;color:#555">${escapeHtml(label)} (written by the agent, not by Signpost)</div><div style="white-space:normal">${escapeHtml(visibleText(text))}</div></blockquote>`;
}
