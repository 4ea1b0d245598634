/** A description's pointer at a list of the answer's options: `options.replacements`. */
const POINTER = /\boptions\.([A-Za-z][A-Za-z0-9_]*)/g;

/**
 * A field's description with each pointer at an option list the answer does not show
 * (`one of options.replacements` before the step that offers it) said as the list's name and
 * when it comes (`when`: "listed once kind is sent"). Played: a form said "one of
 * options.replacements" over no such list, and the model submitted only to see it. Pointers at
 * lists the answer shows are kept as written.
 */
export function listPointersSaid(
  description: string,
  shown: (list: string) => boolean,
  when: string,
): string {
  return description.replace(POINTER, (pointer, list: string) =>
    shown(list) ? pointer : `${list.replace(/_/g, " ")} (${when})`,
  );
}
