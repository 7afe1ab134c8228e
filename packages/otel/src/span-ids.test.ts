import { describe, expect, it } from "bun:test";
import { spanIdFor, traceIdFor } from "./span-ids.ts";

describe("traceIdFor and spanIdFor", () => {
  it("derive the same valid ids from the same thread and address in any process, whatever the case", () => {
    expect(traceIdFor("01m8f08aqgq7wgp36cythbz2mr")).toBe(traceIdFor("01M8F08AQGQ7WGP36CYTHBZ2MR"));
    expect(traceIdFor("01M8F08AQGQ7WGP36CYTHBZ2MR")).toMatch(/^[0-9a-f]{32}$/);
    expect(spanIdFor("step", "b3q6qh64gxd76")).toBe(spanIdFor("step", "B3Q6QH64GXD76"));
    expect(spanIdFor("step", "B3Q6QH64GXD76")).toMatch(/^[0-9a-f]{16}$/);
  });

  it("give a step, its failed run and its suspension different spans", () => {
    const ids = new Set(
      (["step", "failed-run", "suspension"] as const).map((subject) => spanIdFor(subject, "B3Q6QH64GXD76")),
    );
    expect(ids.size).toBe(3);
  });
});
