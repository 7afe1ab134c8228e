import { describe, expect, it } from "bun:test";
import { ambiguousPrefixMessage } from "./ambiguous-prefix-message.ts";

describe("ambiguousPrefixMessage", () => {
  it("names what the prefix is of, quotes the prefix and lists the candidates", () => {
    expect(ambiguousPrefixMessage("thread", "01J9", ["01J9AAAA", "01J9BBBB"])).toBe(
      'thread prefix "01J9" is ambiguous: 01J9AAAA, 01J9BBBB',
    );
  });
});
