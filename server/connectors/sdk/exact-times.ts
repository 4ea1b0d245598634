import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whether the page being rendered shows every time to the minute: a listing filtered by a time
 * window (browse's time-window-rows.ts) shows its rows' times exactly, so a row near the window's
 * bound is decidable from its cell (issue 23: a cell of "2026-12-03, 3 days ago" beside "since
 * 2026-12-03 04:12 UTC" could not say whether the row was in). Async-local, one store per process
 * as page-scope.ts's, so the render helpers stay plain and an installed connector's own SDK copy
 * reads the same flag.
 */
const holder = globalThis as { [key: symbol]: AsyncLocalStorage<boolean> | undefined };
const KEY = Symbol.for("signpost.exactTimes");
holder[KEY] ??= new AsyncLocalStorage<boolean>();
const current = holder[KEY];

/** Runs `render` with every time shown to the minute (where `exact`; else as it is). */
export function withExactTimes<T>(exact: boolean, render: () => T): T {
  return exact ? current.run(true, render) : render();
}

/** Whether times are shown to the minute however far away they are. */
export function exactTimes(): boolean {
  return current.getStore() === true;
}
