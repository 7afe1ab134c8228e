import { describe, expect, it } from "bun:test";
import { THREAD_ID_PATTERN } from "@uwf/protocol";
import { decodeTime, encodeTime } from "ulid";
import { recoveredThreadId } from "./recover-threads.ts";

describe("recoveredThreadId", () => {
  it("is a ULID of the thread's creation time, ending in the head's address and REC", () => {
    const time = Date.UTC(2026, 10, 23, 20, 31, 45, 123);
    const id = recoveredThreadId(time, "2W53JPNXF556H");
    expect(id).toMatch(THREAD_ID_PATTERN);
    expect(id).toBe(`${encodeTime(time, 10)}2W53JPNXF556HREC`);
    expect(decodeTime(id)).toBe(time);
    expect(recoveredThreadId(time, "2W53JPNXF556H")).toBe(id);
    expect(recoveredThreadId(time, "B1XRH20GCX3FB")).not.toBe(id);
  });
});
