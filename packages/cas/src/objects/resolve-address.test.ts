import { describe, expect, it } from "bun:test";
import { AddressPrefixNotFoundError } from "../errors/address-prefix-not-found-error.ts";
import { AmbiguousAddressError } from "../errors/ambiguous-address-error.ts";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { createMemoryObjectStore } from "../memory/create-memory-object-store.ts";
import { nodesSharingAnAddressPrefix } from "../testing/nodes-sharing-an-address-prefix.ts";
import { resolveAddress } from "./resolve-address.ts";

describe("resolveAddress", () => {
  it("takes a whole address as it is, stored or not, in any case", async () => {
    const objects = createMemoryObjectStore();
    expect(await resolveAddress(objects, "2w53jpnxf556h")).toBe("2W53JPNXF556H");
  });

  it("names the one stored node a prefix of 4 or more characters starts", async () => {
    const objects = createMemoryObjectStore();
    const address = await objects.put({ resolve: "me" });
    await objects.putMany(Array.from({ length: 100 }, (_, n) => ({ n })));
    for (const length of [4, 7, 12]) {
      expect(await resolveAddress(objects, address.slice(0, length).toLowerCase())).toBe(address);
    }
  });

  it("refuses a prefix several nodes start, listing them in the message and the data", async () => {
    const objects = createMemoryObjectStore();
    const { prefix, nodes, addresses } = nodesSharingAnAddressPrefix();
    await objects.putMany(nodes);
    const candidates = [...addresses].sort();
    const error = await resolveAddress(objects, prefix).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmbiguousAddressError);
    expect((error as AmbiguousAddressError).code).toBe("ambiguous-address");
    expect((error as AmbiguousAddressError).message).toBe(
      `address prefix ${prefix} is ambiguous: ${candidates.join(", ")}; give more characters`,
    );
    expect((error as AmbiguousAddressError).data).toEqual({ prefix, candidates, more: false });
  });

  it("lists at most 10 candidates and says when there are more", async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `ABCD${String(index).padStart(9, "0")}`);
    const objects = { findAddresses: async (_prefix: string, limit: number) => eleven.slice(0, limit) };
    const error = (await resolveAddress(objects, "abcd").catch((caught: unknown) => caught)) as AmbiguousAddressError;
    expect(error).toBeInstanceOf(AmbiguousAddressError);
    expect(error.data).toEqual({ prefix: "ABCD", candidates: eleven.slice(0, 10), more: true });
    expect(error.message).toEndWith(`${eleven[9]}, …; give more characters`);
  });

  it("refuses a prefix no node starts, and one too short or not of an address, saying which", async () => {
    const objects = createMemoryObjectStore();
    await objects.put({});
    await expect(resolveAddress(objects, "2W54")).rejects.toThrow(AddressPrefixNotFoundError);
    await expect(resolveAddress(objects, "2W54")).rejects.toThrow("no node address starts with 2W54");
    await expect(resolveAddress(objects, "2w5")).rejects.toThrow(InvalidAddressError);
    await expect(resolveAddress(objects, "2w5")).rejects.toThrow('"2w5" is too short to name a node');
    await expect(resolveAddress(objects, "../x")).rejects.toThrow('"../x" is not a node address or the start of one');
  });
});
