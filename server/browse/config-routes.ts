import { fieldList } from "./markdown";
import { objectSections, rowsTable } from "./render-helpers";
import { NOT_FOUND_FOR } from "./route-pages";
import type { RouteDefinition } from "./route-types";

/** `config://` routes: one settings page per connector, read-only (secrets are set in the console). */
export const CONFIG_ROUTES: RouteDefinition[] = (["shop", "helpdesk"] as const).map(
  (connector): RouteDefinition => ({
    pattern: `config://${connector}`,
    title: `${connector} settings`,
    description: `The ${connector} connector's settings; for each secret only whether it is set and when it changed (a person sets secrets in the console).`,
    keywords: ["config", "settings", "secret", "api key", "credentials", "connection", connector],
    startPoint: true,
    // The console's /config is admin-only; settings carry internal addresses and secret metadata.
    adminOnly: true,
    async render(_match, backend) {
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
    async submit(_match, _fields, backend) {
      return {
        title: `${connector} settings`,
        outcome: "rejected",
        markdown: `**rejected:** Secrets are set by an admin in the console (${backend.consoleUrl("/config")}), never through an agent: a secret given to an agent has passed through its model's context. Nothing was changed.`,
      };
    },
  }),
);
