import type { ConsoleRole } from "@/server/gateway/console-session";

/** One console page: where it is, what the nav calls it (null: not in the nav), who may open it. */
export interface ConsolePage {
  path: string;
  title: string | null;
  roles: readonly ConsoleRole[];
}

const EVERYONE = ["admin", "support", "member"] as const;

/**
 * The console's pages, in nav order: the pages (requirePageAccess) and the nav read this one
 * table, so a new page is its page.tsx plus one row, and the nav never shows a page that
 * refuses its reader nor hides one that lets them in.
 */
export const CONSOLE_PAGES = {
  overview: { path: "/", title: "Overview", roles: EVERYONE },
  approvals: { path: "/approvals", title: "Approvals", roles: EVERYONE },
  monitor: { path: "/monitor", title: "Live monitor", roles: ["admin", "support"] },
  actions: { path: "/actions", title: "Actions", roles: EVERYONE },
  permissions: { path: "/permissions", title: "Permissions", roles: ["admin"] },
  agents: { path: "/agents", title: "Agents", roles: ["admin"] },
  config: { path: "/config", title: "Connectors", roles: ["admin"] },
  catalog: { path: "/catalog", title: "Catalog", roles: EVERYONE },
  settings: { path: "/settings", title: "Notifications", roles: EVERYONE },
  // Reached from links (an approval, the search box), not from the nav.
  confirm: { path: "/confirm", title: null, roles: EVERYONE },
  search: { path: "/search", title: null, roles: EVERYONE },
} as const satisfies Record<string, ConsolePage>;

export type ConsolePageId = keyof typeof CONSOLE_PAGES;
