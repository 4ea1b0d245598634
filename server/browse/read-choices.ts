import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { ChoiceFilter, FilterChoice } from "../connectors/sdk/define-route";

/** A connector's choices, or null when they cannot be read now: the words then stay words. */
export async function readChoices(
  spec: ChoiceFilter,
  backend: BrowseBackend,
): Promise<readonly FilterChoice[] | null> {
  try {
    const read = await spec.choices(backend);
    return Array.isArray(read)
      ? read.filter((c) => typeof c?.value === "string" && typeof c.label === "string")
      : null;
  } catch {
    return null;
  }
}
