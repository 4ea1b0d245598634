import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { escapeText, type FormField, formBlock, link } from "../connectors/sdk/markdown";

/** `signpost://start`: the start points `starts` gives this caller (bounded, with how many more). */
export function signpostStartRoute(
  starts: (backend: BrowseBackend) => Promise<{ routes: RouteDefinition[]; more: number }>,
): RouteDefinition {
  return {
    pattern: "signpost://start",
    title: "Start",
    description: "Where to begin: every listing and settings page you may open.",
    keywords: ["home", "start", "help", "index", "what can i do"],
    async render(_match, backend) {
      const who = backend.who();
      const { routes, more } = await starts(backend);
      const lines = routes.map((r) => `- ${link(r.title, r.pattern)} — ${r.description}`);
      if (more) lines.push(`- …and ${more} more connected systems: \`search(query)\` finds their pages.`);
      return {
        title: "Signpost",
        outcome: "applied",
        markdown: `Signed in as ${escapeText(who.userName)} (${escapeText(who.userEmail)}) at ${escapeText(who.tenantName)}.\n\n${lines.join("\n")}\n\nUse \`search(query)\` to find records or pages.`,
      };
    },
  };
}

/** `signpost://permissions/request`: the form for asking an admin for a denied permission. */
export const PERMISSION_REQUEST_ROUTE: RouteDefinition = {
  pattern: "signpost://permissions/request",
  title: "Request permission",
  description: "Form: ask an admin for a permission you were denied.",
  keywords: ["permission", "access", "denied", "request access", "grant"],
  async render(match) {
    const fields: FormField[] = [
      {
        name: "verb",
        type: "enum",
        required: true,
        description: "what you want to do",
        value: match.uri.query.verb ?? "",
        options: ["search", "navigate", "submit", "start", "advance", "confirm"].map((v) => ({ value: v })),
      },
      {
        name: "target",
        type: "string",
        required: true,
        description:
          "the URI or capability target you were denied, exactly as the refusal named it (no wildcards)",
        value: match.uri.query.target ?? "",
      },
      {
        name: "reason",
        type: "string",
        required: false,
        description: "why you need it (shown to the admin)",
      },
    ];
    return {
      title: "Request permission",
      outcome: "applied",
      markdown: `An admin decides; you will not get access by asking twice.\n\n${formBlock("signpost://permissions/request", fields)}`,
    };
  },
  async submit(_match, fields, backend) {
    const verb = typeof fields.verb === "string" ? fields.verb : "";
    const target = typeof fields.target === "string" ? fields.target : "";
    const reason = typeof fields.reason === "string" ? fields.reason : undefined;
    // Stored for an admin to read: what looks secret in the agent's words is not kept.
    const outcome = await backend.requestPermission({
      verb,
      target: backend.redact(target),
      reason: reason === undefined ? undefined : backend.redact(reason),
    });
    return {
      title: "Request permission",
      outcome: outcome.outcome,
      markdown: `**${outcome.outcome}:** ${escapeText(outcome.message)}\n\n${link("Start", "signpost://start")}`,
    };
  },
};
