import { Converter } from "opencc-js/t2cn";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { NextAction } from "../connectors/sdk/outcome";
import { describeInputs } from "./describe-inputs";

/**
 * Lexical capability search: BM25 over titles, triggers, descriptions and synonyms, with
 * light English stemming, Chinese character bigrams and a shared synonym table. Deterministic
 * and explainable; good enough for a catalog of dozens of capabilities. Traditional Chinese is
 * folded to simplified first (OpenCC's dictionaries through opencc-js, Taiwan phrases included),
 * so 申請換貨 and 申请换货 are the same terms and one synonym list serves both.
 */

/** Traditional (Taiwan, with its phrases) → simplified; simplified text passes unchanged. */
const toSimplified = Converter({ from: "twp", to: "cn" });

const STOP_WORDS = new Set(
  "a an the to my i me we our you your it its this that these those of for on in at by with and or is are be do does did can could would should will please want wanna need like just some any from as so up".split(
    " ",
  ),
);

// Query-side synonyms every catalog shares (each key expands to stemmed terms); the connectors
// add the words of their own business (`searchSynonyms`).
const GENERAL_SYNONYMS: Record<string, string[]> = {
  updat: ["chang"],
};

function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}i`;
  else if (w.length > 4 && w.endsWith("es") && /(ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("y")) w = `${w.slice(0, -1)}i`;
  return w;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Splits text into terms: stemmed English words, and bigrams of Chinese runs. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const lower = (CJK.test(text) ? toSimplified(text) : text).toLowerCase().replace(/_/g, " ");
  // Runs of CJK characters and runs of latin letters/digits.
  for (const match of lower.matchAll(/[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+/g)) {
    const run = match[0];
    if (CJK.test(run)) {
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
    } else if (!STOP_WORDS.has(run)) {
      out.push(stem(run));
    }
  }
  return out;
}

interface IndexedDoc {
  capability: AnyCapability;
  tf: Map<string, number>;
  length: number;
}

const FIELD_WEIGHTS = { title: 3, id: 3, synonyms: 2, trigger: 1.5, description: 1 } as const;

export interface CapabilityHit {
  capability: string;
  title: string;
  score: number;
  trigger: string;
  when_not_to_use: string;
  applies_to: string;
  prerequisites: string[];
  inputs: string[];
  side_effects: string[];
  /** `true` always, `false` never, `"conditional"` when `approval_condition` holds. */
  requires_approval: boolean | "conditional";
  approval_condition?: string;
  next_actions: NextAction[];
}

export interface CapabilityIndex {
  search(query: string, limit?: number): CapabilityHit[];
}

export interface CapabilityIndexOptions {
  /**
   * Id prefixes the connectors' records carry, each with the entity it names ("tkt" → "Ticket"):
   * a query that quotes an id (tkt_6) then points at that entity's capabilities.
   */
  idPrefixes?: Record<string, string>;
  /** Query words (stemmed) and the capability terms they mean, from the connectors. */
  synonyms?: Record<string, string[]>;
}

export function buildCapabilityIndex(
  capabilities: AnyCapability[],
  options: CapabilityIndexOptions = {},
): CapabilityIndex {
  const synonyms: Record<string, string[]> = { ...GENERAL_SYNONYMS };
  for (const [word, terms] of Object.entries(options.synonyms ?? {}))
    synonyms[word] = [...new Set([...(synonyms[word] ?? []), ...terms])];
  const prefixes = new Map<string, string[]>();
  for (const [prefix, entity] of Object.entries(options.idPrefixes ?? {}))
    for (const p of tokenize(prefix)) prefixes.set(p, tokenize(entity));
  const docs: IndexedDoc[] = capabilities.map((capability) => {
    const tf = new Map<string, number>();
    let length = 0;
    const add = (text: string, weight: number) => {
      for (const t of tokenize(text)) {
        tf.set(t, (tf.get(t) ?? 0) + weight);
        length += weight;
      }
    };
    add(capability.title, FIELD_WEIGHTS.title);
    // The entity it applies to (and ids with its connector's prefix) point at it.
    add(capability.appliesTo.entity, FIELD_WEIGHTS.description);
    add(capability.id, FIELD_WEIGHTS.id);
    add(capability.synonyms.join(" "), FIELD_WEIGHTS.synonyms);
    add(capability.trigger.use, FIELD_WEIGHTS.trigger);
    add(capability.description, FIELD_WEIGHTS.description);
    return { capability, tf, length };
  });
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(docs.length, 1);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };

  return {
    search(query, limit = 5) {
      const weights = new Map<string, number>();
      for (const t of tokenize(query)) {
        weights.set(t, Math.max(weights.get(t) ?? 0, 1));
        for (const s of [...(synonyms[t] ?? []), ...(prefixes.get(t) ?? [])])
          weights.set(s, Math.max(weights.get(s) ?? 0, 0.6));
      }
      const scored = docs
        .map((d) => {
          let score = 0;
          for (const [t, w] of weights) {
            const f = d.tf.get(t);
            if (!f) continue;
            score += w * idf(t) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgLength)));
          }
          return { d, score };
        })
        .filter((x) => x.score > 0)
        .sort((x, y) => y.score - x.score || x.d.capability.id.localeCompare(y.d.capability.id))
        .slice(0, limit);
      return scored.map(({ d, score }) => capabilityHit(d.capability, score));
    },
  };
}

export function capabilityHit(capability: AnyCapability, score: number): CapabilityHit {
  const rule = capability.policy.approval;
  const requiresApproval = typeof rule === "function" ? ("conditional" as const) : rule === "always";
  return {
    capability: capability.id,
    title: capability.title,
    score: Math.round(score * 1000) / 1000,
    trigger: capability.trigger.use,
    when_not_to_use: capability.trigger.avoid,
    applies_to: capability.appliesTo.entity,
    prerequisites: capability.prerequisites,
    inputs: describeInputs(capability).map((i) => i.field),
    side_effects: capability.sideEffects,
    requires_approval: requiresApproval,
    ...(typeof rule === "function"
      ? { approval_condition: capability.policy.approvalWhen ?? "depends on the request; the flow says" }
      : {}),
    next_actions: [
      {
        tool: "start_action",
        args: { capability: capability.id },
        description: `Start ${capability.title.toLowerCase()}${
          capability.appliesTo.field ? ` (pass ${capability.appliesTo.field} as entity_id)` : ""
        }`,
      },
    ],
  };
}
