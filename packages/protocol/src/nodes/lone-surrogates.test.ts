import { describe, expect, it } from "bun:test";
import { findLoneSurrogate, replaceLoneSurrogates } from "./lone-surrogates.ts";

describe("findLoneSurrogate", () => {
  it("finds a high or low half alone, wherever it is", () => {
    expect(findLoneSurrogate("ab\ud800c")).toBe(2);
    expect(findLoneSurrogate("ab\udc00")).toBe(2);
    expect(findLoneSurrogate("\ud800")).toBe(0);
    expect(findLoneSurrogate("😀\udfff😀")).toBe(2);
  });

  it("passes pairs and text without surrogates", () => {
    expect(findLoneSurrogate("plain é 😀")).toBe(-1);
    expect(findLoneSurrogate("")).toBe(-1);
  });
});

describe("replaceLoneSurrogates", () => {
  it("replaces each lone half with U+FFFD in strings, keys and nested values, keeping pairs", () => {
    expect(replaceLoneSurrogates("a\ud800b😀")).toBe("a\ufffdb😀");
    expect(replaceLoneSurrogates<unknown>({ "k\udc00": ["\ud800", 1, null, { x: "ok" }] })).toEqual({
      "k\ufffd": ["\ufffd", 1, null, { x: "ok" }],
    });
  });

  it("returns other values as they are", () => {
    expect(replaceLoneSurrogates(3)).toBe(3);
    expect(replaceLoneSurrogates(null)).toBeNull();
  });
});
