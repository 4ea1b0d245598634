import type { ApiOperation, ApiParameter } from "./api-operations";
import { type SchemeAuth, secretNameOf } from "./security-schemes";

const HEADER =
  /^(authorization|proxy-authorization)$|(^|[-_])(api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|key)$/i;
const QUERY = /^(api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|key)$/i;
const SAYS_CREDENTIAL =
  /\b(api[ -]?key|access token|auth(entication|orization)? token|bearer token|secret key)\b/i;

/**
 * Whether a parameter carries a credential: a header named like one (`Authorization`,
 * `X-ListenAPI-Key`, `X-Auth-Token`) or documented as one ("your API key"), or a query
 * parameter named `api_key`, `access_token`…. Such a value is the tenant's secret, never a form
 * field an agent fills in (nor a value shown on a page).
 */
export function isCredentialParameter(p: Pick<ApiParameter, "name" | "in" | "description">): boolean {
  if (p.in === "header") return HEADER.test(p.name) || SAYS_CREDENTIAL.test(p.description);
  if (p.in === "query") return QUERY.test(p.name);
  return false;
}

/**
 * Credentials documented as parameters instead of security schemes (Listen Notes' and Ecwid's
 * keys) as schemes of their own: each becomes an API-key secret named after the parameter, sent
 * where the document says, and the operations that take it require it (or, where the document
 * marks it optional, send it when it is set). The parameters leave the operations, so no form
 * shows them.
 */
export function credentialSchemes(
  operations: ApiOperation[],
  supported: Map<string, SchemeAuth>,
): ApiOperation[] {
  const names = new Set([...supported.values()].map((s) => s.name));
  const schemeOf = new Map<string, string>();
  return operations.map((op) => {
    const credentials = op.parameters.filter(isCredentialParameter);
    if (!credentials.length) return op;
    const required: string[] = [];
    const optional: string[] = [];
    for (const p of credentials) {
      const key = `${p.in}:${p.name.toLowerCase()}`;
      // The same header or query key as a declared API-key scheme's: that scheme's secret.
      let scheme =
        schemeOf.get(key) ??
        [...supported.values()].find(
          (s) => s.kind === "api_key" && s.in === p.in && s.param.toLowerCase() === p.name.toLowerCase(),
        )?.scheme;
      if (!scheme) {
        scheme = `parameter ${p.in} ${p.name}`;
        let name = secretNameOf(p.name) ?? "api_key";
        for (let n = 2; names.has(name); n++) name = `${secretNameOf(p.name) ?? "api_key"}_${n}`;
        names.add(name);
        supported.set(scheme, {
          kind: "api_key",
          name,
          scheme,
          in: p.in as "header" | "query",
          param: p.name,
        });
        schemeOf.set(key, scheme);
      }
      (p.required ? required : optional).push(scheme);
    }
    const alternatives = op.security.length ? op.security : [[]];
    const withRequired = alternatives.map((alt) => [...alt, ...required]);
    const security = optional.length
      ? [...withRequired.map((alt) => [...alt, ...optional]), ...withRequired]
      : withRequired;
    return {
      ...op,
      parameters: op.parameters.filter((p) => !credentials.includes(p)),
      security: security.every((alt) => alt.length === 0) ? [] : security,
    };
  });
}
