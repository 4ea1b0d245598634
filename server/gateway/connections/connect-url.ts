/**
 * The console's connect page for a system, on the origin people open the console at
 * (SIGNPOST_PUBLIC_URL, else this server's own port): the link an agent relays.
 */
export function connectUrl(connector: string): string {
  const base = (process.env.SIGNPOST_PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`).replace(
    /\/$/,
    "",
  );
  return `${base}/connect/${encodeURIComponent(connector)}`;
}

/** Where the system sends the person back with the code (registered with the OAuth client). */
export function connectCallbackUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, "")}/connect-callback`;
}
