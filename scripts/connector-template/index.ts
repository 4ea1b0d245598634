import { bearerHealthCheck, defineConnector, type NextAction } from "signpost/sdk";
import { type Adapter, openAdapter } from "./adapter";
import { exampleAddNote } from "./add-note";
import { EXAMPLE_ROUTES } from "./routes";

/**
 * The Example connector: everything Signpost knows about this system, in this one folder.
 * Signpost installs it at start from SIGNPOST_CONNECTORS_DIR (default ./connectors).
 */
export default defineConnector<Adapter>({
  id: "example",
  title: "Example",
  scheme: "example",
  description: "Accounts and their notes.",
  secrets: [{ name: "api_key", description: "The system's API key (Bearer)" }],
  createAdapter: ({ baseUrl, secrets }) => openAdapter({ baseUrl, apiKey: secrets.api_key ?? "" }),
  healthPath: "/health",
  checkConnection: bearerHealthCheck("/v1/health"),
  capabilities: [exampleAddNote],
  entities: [
    {
      name: "example_account",
      label: "Account",
      idPrefix: "example_",
      uri: (id) => `example://account/${id}`,
      async view(adapter, _actor, id) {
        const account = await adapter.account(id);
        if (!account) return null;
        const next: NextAction[] =
          account.status === "active"
            ? [
                {
                  tool: "start_action",
                  args: { capability: "example_add_note", entity_id: account.id },
                  description: "Add a note",
                },
              ]
            : [];
        return { entity: "Account", ...account, next_actions: next };
      },
    },
  ],
  routes: EXAMPLE_ROUTES,
  forms: { example_add_note: "example://account/{id}/note" },
});
