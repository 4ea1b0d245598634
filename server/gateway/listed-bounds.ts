/**
 * The JSON Schema meta key naming a field's bounds that a tool listing its fields' shape only
 * (mcp/compact-schema.ts) still lists: a rule no model would guess, such as a minimum length of 8.
 */
export const LISTED_BOUNDS = "listedBounds";
