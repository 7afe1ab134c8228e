import { describe, expect, it } from "bun:test";
import { newThreadId } from "./new-thread-id.ts";

describe("newThreadId", () => {
  it("gives ids that sort in the order they were made, many within one millisecond", () => {
    const ids = Array.from({ length: 1_000 }, () => newThreadId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
