import { describe, expect, it } from "vitest";
import { emptyActionState } from "@/server/engine/action-state";
import { MAX_STATE_CHARS, stateTooLarge } from "@/server/engine/state-ceiling";

/** The last line of defence: an action never stores more than 64 KB, whatever its fields allow. */
describe("the action state ceiling", () => {
  it("refuses a state past MAX_STATE_CHARS, naming the patch field that grew it most", () => {
    const state = emptyActionState();
    state.values = { note: "n".repeat(10_000), story: "s".repeat(MAX_STATE_CHARS) };
    expect(stateTooLarge(state, { note: state.values.note, story: state.values.story })).toMatchObject({
      field: "story",
      code: "state_too_large",
    });
  });

  it("passes a state that fits, and refuses one nested too deeply", () => {
    const state = emptyActionState();
    state.values = { note: "fits" };
    expect(stateTooLarge(state, { note: "fits" })).toBeNull();
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    state.values = { deep };
    expect(stateTooLarge(state, { deep })?.message).toMatch(/nested too deeply/);
  });
});
