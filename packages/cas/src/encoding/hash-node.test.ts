import { describe, expect, it } from "bun:test";
import xxhash from "xxhash-wasm";
import { createRandom, randomJsonValue } from "../testing/random-json-value.ts";
import { decodeAddress, encodeAddress } from "./encode-address.ts";
import { hashBytes, hashNode } from "./hash-node.ts";

/** DESIGN §3: input value, its JCS text, XXH64 in hex, and the address. */
const VECTORS: [unknown, string, string, string][] = [
  [{}, "{}", "2e1472b57af294d1", "2W53JPNXF556H"],
  [{ b: 1, a: "x" }, '{"a":"x","b":1}', "2cdabe384c2086a9", "2SPNY716211N9"],
  ["hello", '"hello"', "b0f7111020ce8deb", "B1XRH20GCX3FB"],
  [
    { z: null, u: "é", t: true, n: 1.5, arr: [1, 2] },
    '{"arr":[1,2],"n":1.5,"t":true,"u":"é","z":null}',
    "14856035f162e209",
    "191B06QRP5RG9",
  ],
];

describe("hashNode", () => {
  it("reproduces the four test vectors of the design exactly", () => {
    for (const [value, text, hex, address] of VECTORS) {
      const hashed = hashNode(value);
      expect(new TextDecoder().decode(hashed.bytes)).toBe(text);
      expect(hashed.address).toBe(address);
      expect(encodeAddress(BigInt(`0x${hex}`))).toBe(address);
      expect(decodeAddress(address).toString(16).padStart(16, "0")).toBe(hex);
    }
  });

  it("agrees with xxhash-wasm on 2000 generated values", async () => {
    const wasm = await xxhash();
    const random = createRandom(64);
    for (let index = 0; index < 2000; index++) {
      const { address, bytes } = hashNode(randomJsonValue(random));
      expect(address).toBe(encodeAddress(wasm.h64Raw(bytes, 0n)));
    }
  });

  it("agrees with xxhash-wasm on random byte strings of every length up to 300", async () => {
    const wasm = await xxhash();
    const random = createRandom(7);
    for (let length = 0; length <= 300; length++) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
      expect(hashBytes(bytes)).toBe(encodeAddress(wasm.h64Raw(bytes, 0n)));
    }
  });
});

describe("encodeAddress", () => {
  it("writes 13 digits, most significant first, with a first digit of 0-F", () => {
    expect(encodeAddress(0n)).toBe("0000000000000");
    expect(encodeAddress(1n)).toBe("0000000000001");
    expect(encodeAddress(32n)).toBe("0000000000010");
    expect(encodeAddress(0xffff_ffff_ffff_ffffn)).toBe("FZZZZZZZZZZZZ");
    expect(encodeAddress(1n << 63n)).toBe("8000000000000");
  });

  it("round-trips through decodeAddress for random 64-bit values", () => {
    const random = createRandom(13);
    for (let index = 0; index < 1000; index++) {
      const value = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
      const address = encodeAddress(value);
      expect(address).toMatch(/^[0-9A-F][0-9A-HJKMNP-TV-Z]{12}$/);
      expect(decodeAddress(address)).toBe(value);
    }
  });

  it("refuses values outside 64 unsigned bits", () => {
    expect(() => encodeAddress(-1n)).toThrow(RangeError);
    expect(() => encodeAddress(1n << 64n)).toThrow(RangeError);
  });
});
