import type { RouteDefinition } from "../connectors/sdk/define-route";
import { escapeText, fieldList, link } from "../connectors/sdk/markdown";
import { objectSections, rowsTable } from "../connectors/sdk/render-helpers";
import { NOT_FOUND_FOR } from "../connectors/sdk/route-pages";

/**
 * `config://{connector}`: each connector's settings page, read-only (secrets are set in the
 * console). One route for every connector the tenant has; an unknown one is not found.
 */
export const CONFIG_ROUTES: RouteDefinition[] = [
  {
    pattern: "config://connectors",
    title: "Connectors",
    description: "Every system connected for your organisation, each with a link to its settings.",
    keywords: ["config", "settings", "connectors", "systems", "integrations", "connection"],
    startPoint: true,
    adminOnly: true,
    async render(_match, backend) {
      const rows = (await backend.connectors()).map(
        (c) => `- ${link(c.title, `config://${c.id}`)} — ${escapeText(c.description)} (\`${c.scheme}://\`)`,
      );
      return { title: "Connectors", outcome: "applied", markdown: rows.join("\n") || "_(none)_" };
    },
  },
  {
    pattern: "config://{connector}",
    title: "Connector settings",
    description:
      "A connector's settings; for each secret only whether it is set and when it changed (a person sets secrets in the console).",
    keywords: ["config", "settings", "secret", "api key", "credentials", "connection"],
    // The console's /config is admin-only; settings carry internal addresses and secret metadata.
    adminOnly: true,
    async render(match, backend) {
      const connector = match.params.connector ?? "";
      const config = await backend.connectorConfig(connector);
      if (!config) return NOT_FOUND_FOR("connector", connector);
      const secrets = config.secrets.map((s) => ({
        name: s.name,
        set: s.set ? "set" : "not set",
        changed: s.updatedAt ?? "—",
      }));
      return {
        title: `${connector} settings`,
        outcome: "applied",
        markdown: [
          fieldList([
            ["Connector", config.connector],
            ["Enabled", config.enabled ? "yes" : "no"],
          ]),
          `### Settings\n\n${objectSections(config.settings) || "_(none)_"}`,
          `### Secrets\n\nValues are never shown.\n\n${rowsTable(secrets, ["name", "set", "changed"])}`,
          `Secrets are set by an admin on the console's settings page (${backend.consoleUrl("/config")}), never through an agent.`,
        ].join("\n\n"),
      };
    },
    // A secret sent to an agent has already passed through its model's context (and the model
    // provider's logs): an agent never sets one, whoever it works for. A person does, in the console.
    async submit(match, _fields, backend) {
      const connector = match.params.connector ?? "";
      return {
        title: `${connector} settings`,
        outcome: "rejected",
        markdown: `**rejected:** Secrets are set by an admin in the console (${backend.consoleUrl("/config")}), never through an agent: a secret given to an agent has passed through its model's context. Nothing was changed.`,
      };
    },
  },
];
