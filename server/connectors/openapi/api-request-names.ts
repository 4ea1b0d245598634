/** The one capability every imported write runs as (its action names connector and operation). */
export const API_REQUEST = "api_request";
/** The built-in connector that holds it and the page listing the tenant's imported systems. */
export const OPENAPI_CONNECTOR_ID = "openapi";
