import { describe, expect, it } from "bun:test";
import { fenceText } from "./fence-text.ts";

describe("fenceText", () => {
  it("wraps text in a three-backtick fence with an info string", () => {
    expect(fenceText("a: 1\n", "yaml")).toBe("```yaml\na: 1\n```");
  });

  it("uses a longer fence than any backtick run inside the text", () => {
    expect(fenceText("````\ncode\n````")).toBe("`````\n````\ncode\n````\n`````");
  });
});
