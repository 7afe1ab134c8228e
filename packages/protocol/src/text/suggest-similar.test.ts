import { describe, expect, it } from "bun:test";
import { didYouMean, suggestSimilar } from "./suggest-similar.ts";

describe("suggestSimilar", () => {
  it("finds the names fewest edits away, as the command parser's did-you-mean does", () => {
    expect(suggestSimilar("stpe", ["step", "start", "show"])).toEqual(["step"]);
    expect(suggestSimilar("descripton", ["description", "name", "roles"])).toEqual(["description"]);
    expect(suggestSimilar("aproved", ["approved", "comment"])).toEqual(["approved"]);
  });

  it("gives every name equally close, alphabetically, and none when nothing is close", () => {
    expect(suggestSimilar("bat", ["cat", "bar", "zzzzzz"])).toEqual(["bar", "cat"]);
    expect(suggestSimilar("graph", ["name", "roles"])).toEqual([]);
    expect(suggestSimilar("x", ["y"])).toEqual([]);
  });

  it("says it as a clause to add to a message", () => {
    expect(didYouMean("goall", ["goal", "output"])).toBe(' (did you mean "goal"?)');
    expect(didYouMean("bat", ["cat", "bar"])).toBe(' (did you mean one of "bar", "cat"?)');
    expect(didYouMean("zzz", ["goal"])).toBe("");
  });
});
