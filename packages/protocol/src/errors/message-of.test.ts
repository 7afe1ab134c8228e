import { describe, expect, it } from "bun:test";
import { messageOf } from "./message-of.ts";

describe("messageOf", () => {
  it("returns an error's message", () => {
    expect(messageOf(new TypeError("bad input"))).toBe("bad input");
  });

  it("turns any other thrown value into a string", () => {
    expect(messageOf("plain text")).toBe("plain text");
    expect(messageOf(42)).toBe("42");
    expect(messageOf(undefined)).toBe("undefined");
  });
});
