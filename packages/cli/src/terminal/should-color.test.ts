import { describe, expect, it } from "bun:test";
import { shouldColor } from "./should-color.ts";

describe("shouldColor", () => {
  const on = (env: NodeJS.ProcessEnv, terminal = true, flag = true) => shouldColor({ flag, env, terminal });

  it("colours a terminal, and nothing else, when no variable says otherwise", () => {
    expect(on({})).toBe(true);
    expect(on({}, false)).toBe(false);
  });

  it("never colours with --no-color, whatever FORCE_COLOR says", () => {
    expect(on({ FORCE_COLOR: "1" }, true, false)).toBe(false);
  });

  it("does not colour under CI, even on a terminal, unless FORCE_COLOR asks", () => {
    expect(on({ CI: "true" })).toBe(false);
    expect(on({ CI: "1" })).toBe(false);
    expect(on({ CI: "true", FORCE_COLOR: "1" })).toBe(true);
    expect(on({ CI: "false" })).toBe(true);
  });

  it("colours with FORCE_COLOR even into a pipe and over NO_COLOR; FORCE_COLOR=0 or false turns colour off", () => {
    for (const value of ["", "1", "2", "3", "true"]) expect(on({ FORCE_COLOR: value }, false)).toBe(true);
    expect(on({ FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
    expect(on({ FORCE_COLOR: "0" })).toBe(false);
    expect(on({ FORCE_COLOR: "false" })).toBe(false);
  });

  it("honours NO_COLOR when it is not empty", () => {
    expect(on({ NO_COLOR: "1" })).toBe(false);
    expect(on({ NO_COLOR: "" })).toBe(true);
  });
});
