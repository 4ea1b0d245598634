import { format, stripVTControlCharacters } from "node:util";
import { logger } from "@/server/logger";

/** Everything Next.js (and any library) writes with console.* becomes a JSON log line. */
export function routeConsoleToLogger(): void {
  const line = (args: unknown[]) => stripVTControlCharacters(format(...args)).trim();
  const to =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const text = line(args);
      if (text) logger[level]({ from: "console" }, text);
    };
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
  console.debug = to("debug");
  console.trace = to("debug");
}

// On import, and the server's entry imports this module first: a library that writes while it
// loads (oidc-provider warns about the Node version as it is imported) writes JSON lines too.
routeConsoleToLogger();
