import type { ReactNode } from "react";
import { currentConsoleContext } from "@/app/_lib/console-context";
import { ConsoleFrame } from "@/app/_lib/console-frame";

// Every console page depends on the session cookie: never prerender or cache them.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const ctx = await currentConsoleContext();
  // Signed out: the page itself redirects to sign-in with the way back; render nothing around it.
  if (!ctx) return <>{children}</>;
  return <ConsoleFrame ctx={ctx}>{children}</ConsoleFrame>;
}
