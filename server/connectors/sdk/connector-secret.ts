// What a connector asks an admin for: secrets (write-only, in the vault) and settings.
/** A vault secret the connector needs: set by an admin (write-only), never shown to anyone. */
export interface ConnectorSecret {
  name: string;
  description: string;
  /**
   * The adapter is built without it (the system offers alternatives, e.g. an API key or a
   * token); the adapter answers the calls that need it as not configured. Default: required.
   */
  optional?: boolean;
}

/**
 * A value the system needs with every request that is no secret (an integration code, a user
 * name an API expects in a header): set once by an admin on the Connectors page, stored with the
 * connector's settings, shown there, never a field an agent fills in.
 */
export interface ConnectorSetting {
  /** The settings key (`a-z0-9_`). */
  name: string;
  description: string;
}
