// Where Signpost's authorization server and its metadata live. On their own, without
// oidc-provider: the MCP endpoint names them in every 401 and loads only this (the provider,
// 600 modules, is loaded where the authorization server runs: create-authorization-server.ts).

export const OAUTH_PATH = "/oauth";
export const CONSENT_PATH = `${OAUTH_PATH}/consent/`;
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource/mcp";
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server/oauth";

/** The issuer, the protected resource (`/mcp`) and its metadata document, for a public URL. */
export function oauthUrls(publicUrl: string) {
  const base = publicUrl.replace(/\/$/, "");
  return {
    issuer: `${base}${OAUTH_PATH}`,
    resource: `${base}/mcp`,
    resourceMetadataUrl: `${base}${PROTECTED_RESOURCE_PATH}`,
  };
}
