/**
 * Text with every apostrophe as the straight one, and "n't" as the refusal it is ("don’t" → "do
 * not"). Phones and editors type a curly "’": read as a letter break, "don’t reply to the customer"
 * was no refusal and its phrase was taken (security review).
 */
export function straightApostrophes(text: string): string {
  return text.replace(/[’ʼ＇]/g, "'").replace(/n't\b/gi, " not");
}
