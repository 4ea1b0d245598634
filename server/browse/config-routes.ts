import { escapeText, type FormField, fieldList, formBlock, link } from "./markdown";
import { objectSections, rowsTable } from "./render-helpers";
import { NOT_FOUND_FOR } from "./route-pages";
import type { RouteDefinition } from "./route-types";

/** `config://` routes: one settings page (with the replace-a-secret form) per connector. */
export const CONFIG_ROUTES: RouteDefinition[] = (["shop", "helpdesk"] as const).map(
  (connector): RouteDefinition => ({
    pattern: `config://${connector}`,
    title: `${connector} settings`,
    description: `The ${connector} connector's settings; for each secret only whether it is set and when it changed. A form replaces a secret.`,
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
      const fields: FormField[] = [
        {
          name: "name",
          type: "enum",
          required: true,
          description: "which secret to replace",
          options: config.secrets.map((s) => ({ value: s.name })),
        },
        {
          name: "value",
          type: "string",
          required: true,
          description: "the new value (write-only: it is never shown again)",
        },
      ];
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
          `## Form\n\nReplace a secret:\n\n${formBlock(`config://${connector}`, fields)}`,
        ].join("\n\n"),
      };
    },
    async submit(_match, fields, backend) {
      const name = typeof fields.name === "string" ? fields.name : "";
      const value = typeof fields.value === "string" ? fields.value : "";
      const outcome = await backend.setSecret({ connector, name, value });
      // Never echo the value back: the page says only what changed.
      return {
        title: `${connector} settings`,
        outcome: outcome.outcome,
        markdown: `**${outcome.outcome}:** ${escapeText(outcome.message)}\n\n${link(`Back to ${connector} settings`, `config://${connector}`)}`,
      };
    },
  }),
);
