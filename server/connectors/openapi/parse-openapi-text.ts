import { parse as parseYaml } from "yaml";
import { type OpenApiResult, problem } from "./openapi-import-problem";

/**
 * The document's text as a plain object: JSON when it starts like JSON, YAML otherwise. YAML
 * aliases are capped (the library's default of 100), so a "billion laughs" document is refused
 * instead of expanded; custom tags are not resolved into anything but plain data.
 */
export function parseOpenApiText(text: string): OpenApiResult<Record<string, unknown>> {
  const body = text.replace(/^\uFEFF/, "");
  let value: unknown;
  if (/^\s*[{[]/.test(body)) {
    try {
      value = JSON.parse(body);
    } catch (error) {
      return problem(
        "invalid_syntax",
        `The document is not valid JSON: ${(error as Error).message.slice(0, 200)}.`,
      );
    }
  } else {
    try {
      value = parseYaml(body, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false });
    } catch (error) {
      return problem(
        "invalid_syntax",
        `The document is neither JSON nor valid YAML: ${(error as Error).message.split("\n")[0]?.slice(0, 200)}.`,
      );
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return problem("not_openapi", "The document is not an object with `openapi` (or `swagger`) and `paths`.");
  return { ok: true, value: value as Record<string, unknown> };
}
