import { describe, expect, it } from "bun:test";
import { createRandom } from "@uwf/cas/test";
import { Ajv } from "ajv";
import { linearUniqueItems } from "./linear-unique-items.ts";

/** Values that collide in the ways that matter: equal objects in another key order, 1 against "1", [1] against {"0": 1}, 0 against -0. */
const POOL: unknown[] = [
  0,
  -0,
  1,
  "1",
  "",
  null,
  true,
  false,
  [],
  {},
  [1],
  { 0: 1 },
  { a: 1, b: [2, { c: null }] },
  { b: [2, { c: null }], a: 1 },
  [1, [2, [3]]],
  [[2, [3]], 1],
  { a: { b: { c: "d" } } },
  "é",
  "e\u0301",
];

function pick(random: () => number, length: number): unknown[] {
  return Array.from({ length }, () => structuredClone(POOL[Math.floor(random() * POOL.length)]));
}

describe("linearUniqueItems, the one-pass uniqueItems", () => {
  it("agrees with Ajv's own uniqueItems on 5,000 random arrays, and names two items Ajv calls equal", () => {
    const schema = { type: "array", uniqueItems: true };
    const ajvOwn = new Ajv({ allErrors: false }).compile(schema);
    const linear = new Ajv({ allErrors: false });
    linear.removeKeyword("uniqueItems").addKeyword(linearUniqueItems);
    const fast = linear.compile(schema);
    const random = createRandom(20261126);
    for (let run = 0; run < 5000; run++) {
      const items = pick(random, Math.floor(random() * 8));
      const expected = ajvOwn(items);
      expect({ items, valid: fast(items) }).toEqual({ items, valid: expected });
      if (!expected) {
        // Ajv names the last duplicate and this the first; each must name two items Ajv itself calls equal.
        const { i, j } = (fast.errors?.[0]?.params ?? { i: -1, j: -1 }) as { i: number; j: number };
        expect(j).toBeLessThan(i);
        expect({ items, pair: [i, j], unique: ajvOwn([items[j], items[i]]) }).toEqual({
          items,
          pair: [i, j],
          unique: false,
        });
      }
    }
  });
});
