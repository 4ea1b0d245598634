import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { fieldsKey, formFieldsLine } from "../connectors/sdk/form-fields-line";
import { escapeText, link } from "../connectors/sdk/markdown";
import { USER_WORDS } from "../connectors/sdk/user-words-field";
import type { RouteDefinition } from "./browse-routes";
import { firstFormFields } from "./capabilities-section";

/**
 * A search's list of the pages its words matched ("Other pages" beside an opened one), with the
 * best form's fields on its line; null when there are none. `fieldsShown`: a form's fields are
 * said here, so the capabilities after it need not say them again. Its links become the
 * answer's when it is built: only once the answer is known to show it.
 */
export async function pagesSection(
  backend: BrowseBackend,
  pages: ReadonlyArray<{ r: RouteDefinition }>,
  { opened, mine, titles }: { opened: boolean; mine: boolean; titles: ReadonlyMap<string, string> },
): Promise<{ markdown: string; fieldsShown: boolean } | null> {
  if (!pages.length) return null;
  // The best form's line carries its fields: it is submitted from here, not opened first. Not
  // beside an opened page, which answered the words: there the others are only where else to
  // look, by title (set O: a read of Sara's tickets carried the assign form's fields and their key).
  const form = opened
    ? null
    : await firstFormFields(
        backend,
        pages.map(({ r }) => r),
      );
  const lines = pages.map(({ r }, i) => {
    // A listing that takes ?mine=1 opens on the caller's own records when they say "my".
    const uri = mine && r.example?.endsWith("?mine=1") ? r.example : r.pattern;
    // The best two in full (none beside an opened page); the others by title (their page says the rest).
    // A form shown with its fields is said by its title: its fields say the rest.
    const about =
      ((i < 2 && !opened) || r.title === r.description) && form?.index !== i ? r.description : r.title;
    const system = titles.get(r.pattern.split("://")[0] ?? "");
    // A page under path parameters opens from the form its route names (an imported
    // system's start page asks for them), else it is shown as its pattern.
    const opener = r.pattern.includes("{") && r.example && !/[{…]/.test(r.example) ? r.example : null;
    return `- ${opener ? link(r.title, opener) : r.pattern.includes("{") ? `\`${r.pattern}\`` : link(r.title, uri)}${system ? ` (${escapeText(system)})` : ""} — ${about}${form?.index === i ? ` — ${formFieldsLine(form.fields)}` : ""}`;
  });
  const key = form ? `\n${fieldsKey(form.fields.some((f) => f.name === USER_WORDS))}` : "";
  return {
    markdown: `## ${opened ? "Other pages" : "Pages"}\n\n${lines.join("\n")}${key}`,
    fieldsShown: !!form,
  };
}
