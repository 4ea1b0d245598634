/**
 * The vault's values, known by value: whatever Signpost shows, returns, logs, records or exports
 * is scrubbed of them (exact bytes and the encodings an API or a script would echo them in), on
 * top of the redaction by shape and by name. A system that answers `{"note": "<our key>"}`, a
 * script that base64-encodes what a page showed, a token endpoint's error that quotes the
 * `Basic` header: none carries the key out.
 *
 * Process-wide (one store even where Next.js bundles a second copy of this module): every value
 * the vault seals or opens is noted, and `primeVaultValues` notes every stored one at start, so a
 * process that has not used a secret yet still knows it.
 */

export const VAULT_REDACTED = "[redacted]";

/** Shorter values are not scrubbed by value: "admin" or "1234" would redact ordinary text. */
export const MIN_SCRUBBED_LENGTH = 8;
/** A bound on what is kept (each value brings a handful of encodings). */
const MAX_VALUES = 2_000;

interface Store {
  values: Set<string>;
  /** Every form to remove, longest first (a longer form is removed before a part of it). */
  needles: string[];
  primed: WeakMap<object, Promise<void>>;
}

const KEY = Symbol.for("signpost.vaultValues");
const holder = globalThis as { [KEY]?: Store };
if (!holder[KEY]) holder[KEY] = { values: new Set(), needles: [], primed: new WeakMap() };
const store = holder[KEY];

function b64(text: string): string[] {
  const std = Buffer.from(text, "utf8").toString("base64");
  const url = Buffer.from(text, "utf8").toString("base64url");
  return [std, std.replace(/=+$/, ""), url];
}

/** The forms a value is echoed in: as is, base64 (std, unpadded, url), URL- and form-encoded. */
function formsOf(value: string): string[] {
  const forms = [
    value,
    ...b64(value),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ];
  // A `user:password` pair (OAuth client credentials, basic auth): its `Basic` header (as
  // Signpost builds it, with each half URL-encoded, and raw) and each long half alone.
  const colon = value.indexOf(":");
  if (colon > 0) {
    const user = value.slice(0, colon);
    const pass = value.slice(colon + 1);
    forms.push(...b64(`${encodeURIComponent(user)}:${encodeURIComponent(pass)}`));
    for (const half of [user, pass])
      if (half.length >= MIN_SCRUBBED_LENGTH) forms.push(half, ...b64(half), encodeURIComponent(half));
  }
  return forms.filter((f) => f.length >= MIN_SCRUBBED_LENGTH);
}

/** Notes a vault value (sealed, opened or primed) so that it is scrubbed everywhere from now on. */
export function noteVaultValue(value: string | null | undefined): void {
  if (!value || value.length < MIN_SCRUBBED_LENGTH || store.values.has(value)) return;
  if (store.values.size >= MAX_VALUES) {
    const oldest = store.values.values().next().value as string;
    store.values.delete(oldest);
  }
  store.values.add(value);
  const needles = new Set<string>();
  for (const v of store.values) for (const f of formsOf(v)) needles.add(f);
  store.needles = [...needles].sort((a, b) => b.length - a.length);
}

/** The text without any vault value in any of its forms. */
export function scrubVaultText(text: string): string {
  if (store.needles.length === 0 || text.length < MIN_SCRUBBED_LENGTH) return text;
  let out = text;
  for (const needle of store.needles) if (out.includes(needle)) out = out.replaceAll(needle, VAULT_REDACTED);
  return out;
}

/**
 * A copy of `value` whose strings (and keys) hold no vault value; the same object when none did.
 * Copy on write: nothing is allocated for the (nearly always) clean parts, so scrubbing every
 * tool result costs no garbage.
 */
export function scrubVaultValues<T>(value: T, depth = 0): T {
  if (store.needles.length === 0 || depth > 40) return value;
  if (typeof value === "string") return scrubVaultText(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = scrubVaultValues(value[i], depth + 1);
      if (out) out.push(next);
      else if (next !== value[i]) {
        out = value.slice(0, i);
        out.push(next);
      }
    }
    return (out ?? value) as T;
  }
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const source = value as Record<string, unknown>;
    const keys = Object.keys(source);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const v = source[k];
      const key = scrubVaultText(k);
      const next = scrubVaultValues(v, depth + 1);
      if (!out && (key !== k || next !== v)) {
        // The first change: the members before it, as they were, then the rest as scrubbed.
        out = {};
        for (let j = 0; j < i; j++) {
          const before = keys[j] as string;
          out[before] = source[before];
        }
      }
      if (out) out[key] = next;
    }
    return (out ?? value) as T;
  }
  return value;
}

/**
 * Notes every value stored in the vault (once per database handle): listings and exports read
 * in a process that has not opened those secrets yet are scrubbed all the same.
 */
export function primeVaultValues(db: object, load: () => Promise<Array<string | null>>): Promise<void> {
  let primed = store.primed.get(db);
  if (!primed) {
    primed = load()
      .then((values) => {
        for (const v of values) noteVaultValue(v);
      })
      .catch(() => {
        // A row that does not open (another key) is the master-key check's to report.
        store.primed.delete(db);
      });
    store.primed.set(db, primed);
  }
  return primed;
}
