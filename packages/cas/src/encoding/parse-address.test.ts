import { describe, expect, it } from "bun:test";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { isAddress, parseAddress } from "./parse-address.ts";

describe("parseAddress", () => {
  it("returns the upper-case form of an address given in any case", () => {
    expect(parseAddress("2w53jpnxf556h")).toBe("2W53JPNXF556H");
    expect(parseAddress("2W53JPNXF556H")).toBe("2W53JPNXF556H");
  });

  it("rejects paths, wrong lengths, letters outside Crockford base32 and non-strings", () => {
    const malformed: unknown[] = [
      "",
      "../x",
      "../../etc/passwd",
      "2W/53JPNXF556",
      "2W53JPNXF556",
      "2W53JPNXF556HH",
      "ILOU000000000",
      "2w53jpnxf556i",
      "0000000000U00",
      "G000000000000",
      " 2W53JPNXF556H",
      "2W53JPNXF556H\n",
      null,
      42,
    ];
    for (const input of malformed) expect(() => parseAddress(input)).toThrow(InvalidAddressError);
  });

  it("explains what an address looks like", () => {
    expect(() => parseAddress("../x")).toThrow(
      '"../x" is not a node address (13 characters of 0-9 A-Z without I, L, O, U)',
    );
  });
});

describe("isAddress", () => {
  it("tells addresses from thread ids and names", () => {
    expect(isAddress("2w53jpnxf556h")).toBe(true);
    expect(isAddress("01JD3Q4Z5X6Y7W8V9T0S1R2Q3P")).toBe(false);
    expect(isAddress("review-loop")).toBe(false);
  });
});
