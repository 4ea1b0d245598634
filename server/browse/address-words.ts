import { type FilterChoice, type RouteDefinition, takesEmailAddress } from "../connectors/sdk/define-route";
import { filterName, NOT_A_NAME, tokens } from "./filter-tokens";

/** One address filter the words set: its parameter, as said back, and the words that set it. */
export interface AddressSet {
  param: string;
  shown: string;
  words: string[];
}

/** An email address as the words hold it, found whole: Signpost's own pattern, never the agent's. */
const EMAIL_ADDRESS = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** The email addresses a query holds, lower-cased, each once. */
export function emailAddresses(q: string): string[] {
  return [...new Set((q.match(EMAIL_ADDRESS) ?? []).map((a) => a.toLowerCase()))];
}

/**
 * The address filter (`"email address"`) one address in the words sets ("raised by
 * jo@example.test" → `?requester_email=jo%40example.test`), sent as a plain value the system
 * compares whole. With two such filters the one whose name the words say; none when the words
 * hold several addresses or name neither. Issue 23: the address was searched as text in
 * subjects, found nothing, and the model opened every record to read who raised it.
 */
export function addressFilters(
  route: RouteDefinition,
  q: string,
  skip: (key: string) => boolean,
): AddressSet[] {
  const keys = Object.entries(route.filters ?? {})
    .filter(([k, spec]) => takesEmailAddress(spec) && !skip(k))
    .map(([k]) => k);
  const addresses = emailAddresses(q);
  const address = addresses[0];
  if (!keys.length || !address || addresses.length > 1) return [];
  const said = new Set(tokens(q.replace(EMAIL_ADDRESS, " ")));
  const named = keys.filter((k) => tokens(filterName(k)).some((w) => w !== "email" && said.has(w)));
  const key = keys.length === 1 ? keys[0] : named.length === 1 ? named[0] : undefined;
  if (!key) return [];
  return [
    {
      param: `${key}=${encodeURIComponent(address)}`,
      shown: `${filterName(key)} = ${address}`,
      words: [...tokens(address), ...tokens(filterName(key))],
    },
  ];
}

/**
 * An address filter's choices as the words name them: each word of the part before the `@`
 * ("jo.b" → jo), never the domain ("example" is everyone's), nor a letter or a number alone.
 */
export function localPartChoices(read: readonly FilterChoice[]): FilterChoice[] {
  const addresses = new Set(
    read.map((c) => c.value.toLowerCase()).filter((v) => /^[^@\s]+@[^@\s]+$/.test(v)),
  );
  return [...addresses].flatMap((value) =>
    [...new Set(tokens(value.split("@")[0] ?? ""))]
      .filter((w) => !NOT_A_NAME.test(w))
      .map((label) => ({ value, label })),
  );
}
