import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one page render collects and applies: the links its renderer created (in order, once
 * each) and the redaction every shown piece of text passes. A page's `links` are exactly the
 * links `link()` made while it rendered, never anything read back out of its markdown: data
 * that spells `[x](config://shop)` is text, not a link.
 *
 * It is async-local (not a parameter) so that the render helpers stay plain string builders and
 * `link()` stays the one way a link gets into a page; concurrent renders never share a scope.
 * The redaction comes from the backend: browse sits below the gateway that owns it.
 */
interface PageScope {
  links: string[];
  redact: (text: string) => string;
}

/**
 * One store per process, not per module copy: a connector installed from outside the source
 * imports its own copy of the SDK (and Next.js bundles another), and the links its pages make
 * must land on the page the browse layer is rendering.
 */
const holder = globalThis as { [key: symbol]: AsyncLocalStorage<PageScope> | undefined };
const KEY = Symbol.for("signpost.pageScope");
holder[KEY] ??= new AsyncLocalStorage<PageScope>();
const current = holder[KEY];

/** Runs `render` in a fresh scope; returns what it built and the links it created. */
export async function withPageScope<T>(
  redact: (text: string) => string,
  render: () => T | Promise<T>,
): Promise<{ value: T; links: string[] }> {
  const scope: PageScope = { links: [], redact };
  const value = await current.run(scope, render);
  return { value, links: scope.links };
}

/** Records a link of the page being rendered (outside a render there is no page to record it on). */
export function recordLink(uri: string): void {
  const scope = current.getStore();
  if (scope && !scope.links.includes(uri)) scope.links.push(uri);
}

/** Text as the page may show it: what looks secret redacted (identity outside a render). */
export function redactShown(text: string): string {
  const scope = current.getStore();
  return scope ? scope.redact(text) : text;
}
