import { link } from "./markdown";

/** How many records of a kind a connector's record search names; more are counted, with their listing. */
export const RECORDS_SHOWN = 5;

/**
 * The line under a record search's hits cut at RECORDS_SHOWN: how many more, of how many, and the
 * listing that holds them all (never a link made of the words searched). `matched`: the words
 * found them, else they are every record of the kind ("found" is not said). Set CQ: five orders
 * under "Records", with nothing saying three more were there, read as all of them.
 */
export function moreRecordsLine(
  found: number,
  kind: string,
  listing: string,
  title: string,
  matched = true,
): string {
  return `- … ${found - RECORDS_SHOWN} more of the ${found} ${kind}${matched ? " found" : ""} (all in ${link(title, listing)})`;
}
