import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";

/**
 * The backend as one connector's pages see it: its own adapter only. A connector's route or
 * record search asking for another connector's adapter (and so its credentials) gets a refusal.
 */
export function ownBackend(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  scheme: string,
): BrowseBackend {
  const owner = among.find((c) => c.scheme === scheme)?.id;
  if (!owner) return backend;
  return {
    ...backend,
    withAdapter: (connector, run) =>
      connector === owner
        ? backend.withAdapter(connector, run)
        : Promise.resolve({
            outcome: "rejected",
            reason: "not_this_connector",
            message: `${owner}'s pages cannot use the ${connector} connector`,
            retryable: false,
            next_actions: [],
          }),
  };
}
