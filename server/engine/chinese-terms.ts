import { createRequire } from "node:module";

/**
 * Search terms of a run of simplified Chinese characters (traditional text is converted before:
 * the segmenter splits traditional text per character). Two ways, compared on the public dev
 * sets in test/engine/capability-search.test.ts:
 * - `bigrams`: every pair of neighbouring characters, no dictionary;
 * - `jieba`: the words of jieba's search mode (@node-rs/jieba, its bundled dictionary) plus the
 *   bigrams, so a word the dictionary splits differently from the catalog still meets.
 */
export type ChineseSplit = "bigrams" | "jieba" | "jieba+bigrams";

interface JiebaLike {
  cutForSearch(text: string, hmm?: boolean): string[];
}

let jieba: JiebaLike | null | undefined;

/**
 * The segmenter, loaded on the first Chinese text (its dictionary takes ~0.2 s to load), or
 * null where its native binary is missing (bigrams then serve alone). Required at run time so
 * bundlers leave it out (next.config.ts lists it in serverExternalPackages).
 */
function loadJieba(): JiebaLike | null {
  if (jieba !== undefined) return jieba;
  try {
    const require = createRequire(import.meta.url);
    const { Jieba } = require("@node-rs/jieba") as { Jieba: { withDict(dict: Uint8Array): JiebaLike } };
    const { dict } = require("@node-rs/jieba/dict") as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  } catch {
    jieba = null;
  }
  return jieba;
}

// Particles, pronouns and measure words: in every request, naming none.
const FUNCTION_WORDS = new Set(
  "的 了 我 你 他 她 它 们 把 给 这 那 个 是 在 吗 呢 吧 啊 就 都 也 和 与 一下 一个 这个 那个".split(" "),
);

function bigrams(run: string): string[] {
  if (run.length === 1) return [run];
  const out: string[] = [];
  for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  return out;
}

/** Terms of one run of Chinese characters, in order. */
export function chineseTerms(run: string, split: ChineseSplit = "jieba+bigrams"): string[] {
  const pairs = bigrams(run);
  if (split === "bigrams") return pairs;
  const segmenter = loadJieba();
  if (!segmenter) return pairs;
  const words = segmenter.cutForSearch(run, true).filter((w) => !FUNCTION_WORDS.has(w));
  return split === "jieba" ? words : [...new Set([...words, ...pairs])];
}
