import { describe, expect, it } from "vitest";
import { opensPredicate } from "@/server/engine/predicate-start";

/** What happens to a record after its name ("… order stopped working") is read by verb forms, never by a list of complaints. */
describe("opensPredicate", () => {
  it("auxiliaries, their contractions, past forms regular and irregular open a predicate", () => {
    for (const w of ["stopped", "arrived", "never", "is", "hasn't", "didnt", "came", "broke", "got"])
      expect(opensPredicate(w), w).toBe(true);
  });
  it("nouns, adjectives, prepositions and short words do not", () => {
    for (const w of ["teapot", "order", "from", "with", "blue", "red", "working", "broken-ish"])
      expect(opensPredicate(w), w).toBe(false);
  });
});
