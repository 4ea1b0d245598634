import type { FilterChoice } from "../connectors/sdk/define-route";
import { filterName, tokens } from "./filter-tokens";

/**
 * The filter's "none" choice where the words ask for the rows it holds nothing for ("tickets with
 * no assignee", "orders without a coupon"): "no" or "without" right before the filter's own name.
 * Plain English, no connector's words. A negation denies the word after it, so the filter's name
 * was read as words said apart and the listing opened whole (set AZ: "tickets with no assignee"
 * opened the teammates page, then every ticket). The filter's records are read only then.
 */
export async function noneNamed(
  q: string,
  key: string,
  read: () => Promise<readonly FilterChoice[] | null>,
): Promise<{ choice: FilterChoice; words: string[] } | null> {
  const name = tokens(filterName(key));
  const said = tokens(q);
  for (let i = 1; name.length && i + name.length <= said.length; i++) {
    if (!name.every((w, j) => said[i + j] === w)) continue;
    const before = said.slice(Math.max(0, i - 3), i);
    // "no assignee", "without an assignee", "without any assignee".
    const at = before.findLastIndex((w) => w === "no" || w === "without");
    if (at < 0 || !before.slice(at + 1).every((w) => ["a", "an", "any"].includes(w))) continue;
    const choice = ((await read()) ?? []).find((c) => c.value === "none");
    return choice ? { choice, words: [...before.slice(at), ...name] } : null;
  }
  return null;
}
