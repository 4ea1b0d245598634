import type { BackendOutcome, BrowseBackend, Row } from "../connectors/sdk/browse-backend";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { AnyConnector, ConnectorEntity } from "../connectors/sdk/define-connector";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { REQUEST_NOTE } from "../connectors/sdk/request-note";
import type { RouteDefinition } from "./browse-routes";
import type { MayNavigate } from "./navigable-routes";
import { navigate } from "./navigate";
import { ASKING, scoreRoute, words } from "./route-words";

/**
 * Words asking whether an action is possible ("records I can <do>", "still be <done>"). "Still"
 * alone says a state lasts: "urgent or high priority tickets still open" was answered with where
 * a priority change is possible, every ticket "possible" (set AZ's review of AX9).
 */
const ASKS_IF_POSSIBLE = /\b(can|could|eligible|allowed|able to|still be)\b/i;
/**
 * "can (still) be <verb>ed": the modal, "still", and the participle's stem ("cancel" of
 * "cancelled", "return" of "returned"; "clos" of "closed", read as "close" where a capability's
 * id or title says so).
 */
const PASSIVE_POSSIBLE = /\b(can|could)(\s+still)?\s+be\s+(\p{L}{3,}?)(?:led|ed|d)\b/giu;
/** A polite frame is no such question: "can you find…", "could I see…" ask to read. */
const POLITE_FRAME =
  /\b(can|could)\s+(you|u|i|we)\s+(please\s+)?(find|show|see|get|give|list|look|tell|view|have|search|pull|check)\b|\b(can|could)\s+(you|u)\b/gi;

/**
 * At most this many records of the listing are checked: each check is one dry run of the
 * capability (its own connector reads, a permission check and an audit row), so one search costs
 * a bounded number of calls to the system however long the listing is.
 */
export const ELIGIBILITY_CAP = 10;
/** Dry runs in flight at once: the system is asked in small batches, not all at once. */
const IN_FLIGHT = 4;
/** A reason is a few words: the first clause of the capability's own message, cut here. */
const WHY_CHARS = 140;

/**
 * The answer to "which of my records can I still <do>?" in the search that asks it: the
 * capability the words name is dry-run for each record of the listing the words name (the rows
 * its first page shows, at most ELIGIBILITY_CAP) with the user's words, so what it says is what
 * start_action would say — the records where it is possible, with what is possible, and in a few
 * words why the others are not. Every check is the gateway's own dry run for this caller
 * (permission, tenant, audit row); nothing is saved.
 *
 * Null (the search answers as any other) unless the words ask whether something is possible, a
 * capability is named by its own words (not only by "can"/"still" or by the kind of record), and
 * its records are those of the listing the words name: "which tickets are still open?" asks about
 * records' state, not whether some other system's capability applies. `answered` only then: the
 * listing checked is the one the words name (or, naming none, the listing of the entity they
 * name); a line pointing at the dry run when records cannot be listed.
 */
export async function eligibleRecords(
  backend: BrowseBackend,
  asked: string,
  askedWords: string[],
  mine: boolean,
  namedListing: string | null,
  among: readonly AnyConnector[],
  may: MayNavigate,
): Promise<{ markdown: string; answered: boolean } | null> {
  const line = (markdown: string) => ({ markdown, answered: false });
  // "Which of my orders can still be cancelled?" asks what "can I still cancel" asks: read so, the
  // participle is no state to filter the listing by (set DH: only the cancelled order was listed).
  // The capabilities' own words, read only where the words ask in the passive (every search
  // comes here).
  let verbs: Set<string> | undefined;
  const active = asked.replace(
    PASSIVE_POSSIBLE,
    (_all, modal: string, still: string | undefined, stem: string) => {
      verbs ??= new Set(
        among
          .flatMap((c) => c.capabilities)
          .flatMap((c) => words(`${c.id.replace(/[_.-]+/g, " ")} ${c.title}`)),
      );
      const low = stem.toLowerCase();
      return `${modal}${still ?? ""} ${verbs.has(low) || !verbs.has(`${low}e`) ? stem : `${stem}e`}`;
    },
  );
  const passive = active !== asked;
  const q = active;
  const qWords = passive ? words(active) : askedWords;
  const named = passive ? null : namedListing;
  if (!ASKS_IF_POSSIBLE.test(q.replace(POLITE_FRAME, " "))) return null;
  const caps = await backend.searchCapabilities(q);
  if (caps.outcome !== "applied") return null;
  const list = (
    Array.isArray(caps.results) ? caps.results : Array.isArray(caps.capabilities) ? caps.capabilities : []
  ) as Row[];
  const top = list[0];
  const id =
    typeof top?.capability === "string" ? top.capability : typeof top?.id === "string" ? top.id : null;
  // A match on the kind of record alone, or on what the capability says it is not for, names none.
  if (!id || top?.topic_only || top?.not_for) return null;
  const capability = among.flatMap((c) => c.capabilities).find((c) => c.id === id);
  const connector = among.find((c) => c.id === capability?.connector);
  if (!capability || !connector || !namesCapability(capability, qWords)) return null;
  const entity = entityOf(capability, connector);
  if (!capability.appliesTo.field) return line(pointer(id, false));
  if (!entity) return line(pointer(id, true));
  // The listing checked is the one the words name; with none named, the entity's own listing
  // when the words name the entity ("which of my <records> can I …").
  const ofEntity = listingOf(connector, entity, qWords, mine);
  const same = (a: string, b: string) => a.split("?")[0] === b.split("?")[0];
  const namesEntity = words(`${entity.name} ${entity.label}`).some((w) => qWords.includes(w));
  if (named ? !ofEntity || !same(named, ofEntity) : !namesEntity) return null;
  const listing = named ?? ofEntity;
  if (!listing) return line(pointer(id, true));

  const first = await checkedWith(backend, capability, entity, listing, q, may);
  // A near match of the same records ("cancel" names the unpaid order's cancellation and the
  // paid one's cancel-and-refund) is checked too: set AT's "Is there any order I can still cancel
  // without paying anything?" checked only the refund, said the unpaid order was "not possible",
  // and the models found the cancellation by three more calls.
  const second = list[1];
  const nearId = typeof second?.capability === "string" ? second.capability : null;
  const near = nearId ? among.flatMap((c) => c.capabilities).find((c) => c.id === nearId) : undefined;
  const close =
    !!near &&
    !second?.topic_only &&
    !second?.not_for &&
    near.connector === capability.connector &&
    near.appliesTo.entity === capability.appliesTo.entity &&
    !!near.appliesTo.field &&
    Number(second?.score) >= Number(top?.score) * NEAR &&
    namesCapability(near, qWords) &&
    // Only where the words say its verb and not the best one's: "which tickets can I still close"
    // is close_ticket's alone, though resolve_ticket is "close" too (review 55c: 18 dry runs).
    qWords.includes(verbOf(near.id)) &&
    !qWords.includes(verbOf(capability.id));
  if (!close || !first.answered) return first;
  const also = await checkedWith(backend, near, entity, listing, q, may);
  return { markdown: `${first.markdown}\n\n${also.markdown}`, answered: true };
}

/** A capability's verb, its id's first word ("cancel" of cancel_unpaid_order). */
const verbOf = (id: string) => words(id.split(/[_.-]/)[0] ?? "")[0] ?? "";

/** How near the best match's score the next one must be to be checked beside it. */
const NEAR = 0.5;

/**
 * The records of `listing` checked with the capability's own dry run: where it is possible, with
 * what, and in a few words why not elsewhere.
 */
async function checkedWith(
  backend: BrowseBackend,
  capability: AnyCapability,
  entity: ConnectorEntity<unknown>,
  listing: string,
  q: string,
  may: MayNavigate,
): Promise<{ markdown: string; answered: boolean }> {
  const line = (markdown: string) => ({ markdown, answered: false });
  const id = capability.id;
  // Whether this caller may start it is one question, asked once: a caller who may not costs no
  // dry run at all. A capability that decides its permission from its inputs is asked per record.
  if (!capability.permissionTarget) {
    const allowed = await backend.authorize("start", `capability:${id}`);
    if (allowed.decision !== "allow")
      return line(`Could not check ${code(id)}: ${escapeText(firstClause(allowed.message))}.`);
  }

  const page = await navigate(backend, listing);
  if (page.outcome !== "applied") return line(pointer(id, true));
  const idOf = idReader(entity);
  const ids = [...new Set(page.links.map(idOf).filter((x): x is string => x !== null))];
  if (ids.length === 0)
    return line(
      `${link(page.title, page.uri)} lists no ${entity.label.toLowerCase()} to check for ${code(id)}.`,
    );
  // A dry run reads each record (its state is in every reason): only records whose page the
  // caller may open are checked, and the others are neither named nor counted.
  const opens = await Promise.all(ids.map((entityId) => may(entity.uri(entityId))));
  const open = ids.filter((_, i) => opens[i]);
  if (!open.length)
    return line(`Could not check ${code(id)} for ${escapeText(page.title)}: you may not open their pages.`);
  const checked = open.slice(0, ELIGIBILITY_CAP);
  // A refusal of the check itself (no permission, system down) is the same for every record:
  // the batches stop there, and it is said once. A record not there for this caller is its own line.
  const failed = (a: BackendOutcome) => a.outcome !== "preview" && a.outcome !== "not_found";
  const answers = await inBatches(
    checked,
    (entityId) =>
      backend.startAction({ capability: id, entity_id: entityId, intent: q.slice(0, 500), dry_run: true }),
    failed,
  );
  const refused = answers.find(failed);
  if (refused)
    return line(
      `Could not check ${code(id)} for ${escapeText(page.title)}: ${escapeText(firstClause(refused.message))}.`,
    );

  const possible: string[] = [];
  const not: string[] = [];
  checked.forEach((entityId, i) => {
    const answer = answers[i] as BackendOutcome;
    const errors = (
      answer.outcome === "not_found" ? [{ message: answer.message }] : (answer.validation_errors ?? [])
    ) as Array<{ message?: string }>;
    const rowLink = link(entityId, entity.uri(entityId));
    // The listing shows the record, so "not found" means not this caller's to act on (a
    // capability that takes only the caller's own records), never that it does not exist.
    if (answer.outcome === "not_found") not.push(`- ${rowLink} — not available to you`);
    else if (errors.length) not.push(`- ${rowLink} — ${escapeText(firstClause(errors[0]?.message ?? ""))}`);
    else possible.push(`- ${rowLink} — ${whatIsPossible(answer, capability.appliesTo.field as string)}`);
  });
  const label = entity.label.toLowerCase();
  // The listing's next page (a link to the same listing with ?page=): not checked, and said so.
  const base = page.uri.split("?")[0] ?? page.uri;
  const next = page.links.find((l) => l.split("?")[0] === base && /[?&]page=\d+/.test(l));
  const scope = `${checked.length} ${label}${checked.length === 1 ? "" : "s"} of ${link(page.title, page.uri)}${open.length > checked.length ? ` (the first ${checked.length} of ${open.length} shown; at most ${ELIGIBILITY_CAP} are checked)` : ""}`;
  const start = JSON.stringify({ capability: id, entity_id: "…" });
  const markdown = [
    `## Where ${code(id)} is possible now`,
    `Checked with ${code(id)}'s own dry run for ${scope}; nothing was changed.${next ? ` Only this page: ${link("the next page", next)} was not checked.` : ""}`,
    possible.length ? `Possible:\n${possible.join("\n")}` : `Possible for none of them.`,
    not.length ? `Not possible:\n${not.join("\n")}` : "",
    possible.length ? `Start one: \`start_action ${start}\`.` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  return { markdown, answered: true };
}

/**
 * The line said when no listing can be checked: the capability's dry run answers, per record
 * when it takes one (`perRecord`); a capability that takes no record is never given an entity_id.
 */
function pointer(id: string, perRecord: boolean): string {
  if (!perRecord) {
    const call = JSON.stringify({ capability: id, dry_run: true });
    return `Whether it is possible is ${code(id)}'s to say: \`start_action ${call}\` previews it (nothing changes).`;
  }
  const call = JSON.stringify({ capability: id, entity_id: "…", dry_run: true });
  return `Whether it is possible is ${code(id)}'s to say, per record: each record's page lists the actions that apply now and why the others do not, or \`start_action ${call}\` previews one (nothing changes).`;
}

/**
 * Whether the query names the capability by its own words (id, title, synonyms, trigger), other
 * than the words of the question ("can", "still") and of the kind of record it applies to.
 */
function namesCapability(capability: AnyCapability, qWords: string[]): boolean {
  const entityWords = new Set(words(capability.appliesTo.entity));
  const own = new Set(
    // The id's own words too: "cancel" names cancel_unpaid_order, whose title says "cancellation".
    words(
      `${capability.id.replace(/[_.-]+/g, " ")} ${capability.title} ${capability.synonyms.join(" ")} ${capability.trigger.use}`,
    ),
  );
  return qWords.some((w) => !ASKING.has(w) && !entityWords.has(w) && own.has(w));
}

/** The connector's entity the capability applies to, by its name or label. */
function entityOf(capability: AnyCapability, connector: AnyConnector): ConnectorEntity<unknown> | undefined {
  const wanted = capability.appliesTo.entity.toLowerCase();
  return connector.entities.find((e) => e.name.toLowerCase() === wanted || e.label.toLowerCase() === wanted);
}

/**
 * The listing of the entity's records: a start-point listing (no path parameters, no form) of
 * the connector, the one the query's words and the entity's name name best; with "my" its own
 * records where it takes ?mine=1.
 */
function listingOf(
  connector: AnyConnector,
  entity: ConnectorEntity<unknown>,
  qWords: string[],
  mine: boolean,
): string | undefined {
  const asked = [...qWords, ...words(`${entity.name} ${entity.label}`)];
  const best = connector.routes
    .filter((r: RouteDefinition) => r.startPoint && !r.pattern.includes("{") && !r.submit)
    .map((r) => ({ r, score: scoreRoute(asked, r) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)[0]?.r;
  if (!best) return undefined;
  return mine && best.example?.endsWith("?mine=1") ? best.example : best.pattern;
}

/** Reads a record's id back out of a link to its page (the entity's own `uri(id)`), else null. */
function idReader(entity: ConnectorEntity<unknown>): (uri: string) => string | null {
  const mark = "SIGNPOSTRECORDID";
  const [prefix = "", suffix = ""] = entity.uri(mark).split(mark);
  return (uri) => {
    if (!uri.startsWith(prefix) || !uri.endsWith(suffix) || uri.length <= prefix.length + suffix.length)
      return null;
    const id = uri.slice(prefix.length, uri.length - suffix.length);
    return /^[A-Za-z0-9_.:-]{1,64}$/.test(id) ? id : null;
  };
}

/** Runs `run` for each item, IN_FLIGHT at a time, in the items' order; stops after a batch with a `stop` answer. */
async function inBatches<T, R>(
  items: T[],
  run: (item: T) => Promise<R>,
  stop: (r: R) => boolean,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += IN_FLIGHT) {
    const batch = await Promise.all(items.slice(i, i + IN_FLIGHT).map(run));
    out.push(...batch);
    if (batch.some(stop)) break;
  }
  return out;
}

/** The first clause of a message, without the dry run's own preamble. */
function firstClause(message: string): string {
  const text = message.replace(/^Preview only, nothing was saved:\s*/, "");
  const clause = text.split(/;\s/)[0] ?? text;
  return clause.length > WHY_CHARS ? `${clause.slice(0, WHY_CHARS - 1)}…` : clause;
}

/**
 * What a dry run found possible, in a few words: each choice the user's words named; for each
 * choice it still needs or filled in itself, the values its options offer (rows it marks not
 * eligible left out); then the other fields it still needs.
 */
function whatIsPossible(answer: BackendOutcome, recordField: string): string {
  const parts: string[] = [];
  const said = new Set<string>();
  const named = (answer.from_words ?? {}) as Row;
  // A reason filled with the user's question is no choice of theirs: said, it repeated the
  // question on every possible row (~25 tokens each).
  const options = (answer.options ?? {}) as Row;
  for (const [field, value] of Object.entries(named))
    if (field !== recordField && typeof value === "string" && !value.endsWith(`(${REQUEST_NOTE})`)) {
      const why = choiceMessage(options, field, value);
      parts.push(`${field} ${code(value)}${why ? ` (${escapeText(why)})` : ""}`);
      said.add(field);
    }
  const missing = Array.isArray(answer.missing) ? (answer.missing as string[]) : [];
  const defaulted = (answer.defaulted ?? {}) as Record<string, { value?: unknown }>;
  const open = [...missing, ...Object.keys(defaulted)].filter((f) => !said.has(f));
  for (const [key, field] of Object.entries((options.field_of ?? {}) as Record<string, string>)) {
    const rows = options[key];
    if (!open.includes(field) || said.has(field) || !Array.isArray(rows)) continue;
    const values = (rows as Row[])
      .filter((r) => r.eligible !== false && r.possible !== "no")
      .map((r) => r[field] ?? r.id ?? r.value)
      .filter((v): v is string => typeof v === "string");
    if (!values.length || values.length > 8) continue;
    parts.push(`${field}: ${values.map((v) => code(v)).join(" or ")}`);
    said.add(field);
  }
  for (const [field, d] of Object.entries(defaulted))
    if (!said.has(field) && typeof d?.value === "string") {
      parts.push(`${field} ${code(d.value)}`);
      said.add(field);
    }
  const rest = missing.filter((f) => !said.has(f));
  return [parts.join(", ") || "possible", rest.length ? `needs ${rest.join(", ")}` : ""]
    .filter(Boolean)
    .join("; ");
}

/**
 * What the capability's own row for the chosen value says of it now (an option row's `message`:
 * "… until 2026-12-30: <items>"), its first clause: issue 23's "which can I still <do>, and until
 * when?" got "kind `…`; needs item_ids" per record and opened each one for the date and the items.
 */
function choiceMessage(options: Row, field: string, value: string): string | undefined {
  const lists = Object.entries((options.field_of ?? {}) as Record<string, string>)
    .filter(([, f]) => f === field)
    .map(([key]) => options[key]);
  for (const rows of lists) {
    if (!Array.isArray(rows)) continue;
    const row = (rows as Row[]).find((r) => r[field] === value && r.eligible !== false);
    if (typeof row?.message === "string") return firstClause(row.message);
  }
  return undefined;
}
