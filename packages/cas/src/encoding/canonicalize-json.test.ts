import { describe, expect, it } from "bun:test";
import canonicalize from "canonicalize";
import { InvalidJsonValueError } from "../errors/invalid-json-value-error.ts";
import { createRandom, randomJsonValue } from "../testing/random-json-value.ts";
import { canonicalizeJson, canonicalizeJsonBytes } from "./canonicalize-json.ts";
import { encodeCanonicalJson } from "./encode-canonical-json.ts";

/** RFC 8785 Appendix B: IEEE 754 bit patterns and the text JCS requires for each. */
const RFC_NUMBER_SAMPLES: [string, string][] = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["44b52d02c7e14af5", "9.999999999999997e+22"],
  ["44b52d02c7e14af6", "1e+23"],
  ["44b52d02c7e14af7", "1.0000000000000001e+23"],
  ["444b1ae4d6e2ef4e", "999999999999999700000"],
  ["444b1ae4d6e2ef4f", "999999999999999900000"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555553", "333333333.3333332"],
  ["41b3de4355555554", "333333333.33333325"],
  ["41b3de4355555555", "333333333.3333333"],
  ["41b3de4355555556", "333333333.3333334"],
  ["41b3de4355555557", "333333333.33333343"],
  ["becbf647612f3696", "-0.0000033333333333333333"],
  ["43143ff3c1cb0959", "1424953923781206.2"],
];

function doubleFromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

const encoders = [
  ["canonicalizeJson", canonicalizeJson],
  ["encodeCanonicalJson", encodeCanonicalJson],
] as const;

for (const [name, encode] of encoders) {
  describe(name, () => {
    it("serialises the RFC 8785 number samples exactly", () => {
      for (const [bits, expected] of RFC_NUMBER_SAMPLES) {
        expect(encode({ n: doubleFromBits(bits) })).toBe(`{"n":${expected}}`);
      }
    });

    it("rejects NaN and the infinities, as RFC 8785 requires", () => {
      for (const bits of ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"]) {
        expect(() => encode([doubleFromBits(bits)])).toThrow(InvalidJsonValueError);
      }
    });

    it("sorts the RFC 8785 key sample by UTF-16 code units", () => {
      const input = JSON.parse(
        '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",' +
          '"\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
      );
      // Parsing the output back would move "1" first again, so compare the text itself.
      expect(encode(input)).toBe(
        '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
          '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
      );
      expect(encode(input)).toBe(canonicalize(input) as string);
    });

    it("writes the RFC 8785 main example byte for byte", () => {
      const input = JSON.parse(
        '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
          '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
      );
      expect(encode(input)).toBe(
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
          '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
      );
    });

    it("agrees with the canonicalize library on 5000 generated values", () => {
      const random = createRandom(8785);
      for (let index = 0; index < 5000; index++) {
        const value = randomJsonValue(random);
        expect(encode(value)).toBe(canonicalize(value) as string);
      }
    });

    it("drops undefined members and writes undefined items as null, like JSON.stringify", () => {
      expect(encode({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
    });

    it("uses toJSON, so a Date becomes its ISO string", () => {
      expect(encode({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    });

    it("keeps __proto__ and array-index keys as ordinary members", () => {
      const input = JSON.parse('{"__proto__":{"x":1},"b":2,"10":3,"9":4}');
      expect(encode(input)).toBe('{"10":3,"9":4,"__proto__":{"x":1},"b":2}');
    });

    it("encodes values nested 5000 levels deep", () => {
      let value: unknown = 1;
      for (let level = 0; level < 5000; level++) value = { a: [value] };
      expect(encode(value)).toBe(`${'{"a":['.repeat(5000)}1${"]}".repeat(5000)}`);
    });

    it("names the path of a value it cannot encode", () => {
      const cases: [unknown, string][] = [
        [{ a: [1, 2n] }, "$.a[1]"],
        [{ f: () => 1 }, "$.f"],
        [{ "x y": Symbol("s") }, '$["x y"]'],
        [{ n: Number.NaN }, "$.n"],
        [{ s: "\ud800" }, "$.s"],
        [{ m: new Map() }, "$.m"],
      ];
      for (const [value, path] of cases) {
        expect(() => encode(value)).toThrow(path);
        expect(() => encode(value)).toThrow(InvalidJsonValueError);
      }
    });

    it("rejects a cycle with a clear error instead of overflowing the stack", () => {
      const shallow: Record<string, unknown> = { a: 1 };
      shallow.self = shallow;
      const deep: unknown[] = [];
      let tail = deep;
      for (let level = 0; level < 200; level++) {
        const next: unknown[] = [];
        tail.push(next);
        tail = next;
      }
      tail.push(deep);
      for (const value of [shallow, deep]) expect(() => encode(value)).toThrow("cycle");
    });

    it("encodes the same object twice when it is shared but not cyclic", () => {
      const shared = { z: 1, a: 2 };
      expect(encode({ left: shared, right: [shared, shared] })).toBe(
        '{"left":{"a":2,"z":1},"right":[{"a":2,"z":1},{"a":2,"z":1}]}',
      );
    });

    it("refuses undefined at the top level", () => {
      expect(() => encode(undefined)).toThrow(InvalidJsonValueError);
    });
  });
}

describe("canonicalizeJsonBytes", () => {
  it("returns the canonical text as UTF-8", () => {
    expect(Buffer.from(canonicalizeJsonBytes({ u: "é", a: 1 })).toString("hex")).toBe(
      Buffer.from('{"a":1,"u":"é"}', "utf8").toString("hex"),
    );
  });
});

describe("canonicalizeJson", () => {
  it("does not change the value it encodes", () => {
    const value = { z: [3, { y: 1, x: 2 }], a: "b" };
    const before = structuredClone(value);
    canonicalizeJson(value);
    expect(value).toEqual(before);
    expect(Object.keys(value)).toEqual(["z", "a"]);
  });
});
