// An instance that is leaving: first out of the balancer's rotation (readiness answers 503 while
// it still serves every request), then its live monitor streams end with a last event. Kept on
// globalThis because the HTTP server (scripts/) and the Next.js bundle (the routes) load this
// module separately in one process and must see one state.

interface DrainState {
  draining: boolean;
  streams: AbortController;
}

const KEY = Symbol.for("signpost.draining");

function state(): DrainState {
  const holder = globalThis as { [KEY]?: DrainState };
  holder[KEY] ??= { draining: false, streams: new AbortController() };
  return holder[KEY];
}

/** From now on `/api/health/ready` answers 503 ("draining"); requests are still served. */
export function beginDrain(): void {
  state().draining = true;
}

/** Whether this instance has begun leaving: balancers should send it nothing new. */
export function isDraining(): boolean {
  return state().draining;
}

/** Ends every live monitor stream, open or opened later, with its last event. */
export function endLiveStreams(): void {
  state().draining = true;
  state().streams.abort();
}

/** Aborted when live streams must end: a stream sends its last event and closes. */
export function liveStreamsEnding(): AbortSignal {
  return state().streams.signal;
}
