import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The real Train Travel document with its `OAuth2` scheme's authorization code flow swapped for an
 * implicit one: an authorization code scheme is imported per person (each person connects their
 * own account; test/connections/person-connections.test.ts), while these tests prove what an
 * admin's pasted token does (stored in the vault, sent as a bearer, never printed). Same scheme
 * name, same operations, same security requirements.
 */
export function trainDocWithPastedToken(): string {
  const source = join(process.cwd(), "node_modules/@readme/oas-examples/3.1/json/train-travel.json");
  const doc = JSON.parse(readFileSync(source, "utf8"));
  const code = doc.components.securitySchemes.OAuth2.flows.authorizationCode;
  doc.components.securitySchemes.OAuth2.flows = {
    implicit: { authorizationUrl: code.authorizationUrl, scopes: code.scopes },
  };
  const path = join(mkdtempSync(join(tmpdir(), "signpost-train-")), "train-travel.json");
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
