import { describe, expect, it } from "bun:test";
import { NODE_SCHEMAS, nodeKind } from "@uwf/protocol";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { InvalidJsonValueError } from "../errors/invalid-json-value-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { nodesSharingAnAddressPrefix } from "./nodes-sharing-an-address-prefix.ts";
import { createSampleNodes } from "./sample-nodes.ts";

export const MALFORMED_ADDRESSES = [
  "",
  "../x",
  "../../../../etc/passwd",
  "2W53JPNXF556",
  "2W53JPNXF556HH",
  "ILOU000000000",
];

async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const collected: Item[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

export function describeObjectStoreConformance(current: CurrentStore): void {
  describe("objects", () => {
    it("has a sample node for every kind in protocol's NODE_SCHEMAS", () => {
      const kinds = new Set(Object.values(createSampleNodes()).map(nodeKind));
      for (const kind of Object.keys(NODE_SCHEMAS)) expect(kinds.has(kind)).toBe(true);
    });

    it("round-trips a realistic node of every kind unchanged", async () => {
      const { objects } = current();
      for (const node of Object.values(createSampleNodes())) {
        NODE_SCHEMAS[nodeKind(node) as string]?.parse(node);
        const address = await objects.put(node);
        expect(await objects.get(address)).toEqual(node);
      }
    });

    it("stores the design's test vectors at their addresses, as canonical bytes", async () => {
      const { objects } = current();
      expect(await objects.put({})).toBe("2W53JPNXF556H");
      expect(await objects.put({ b: 1, a: "x" })).toBe("2SPNY716211N9");
      expect(new TextDecoder().decode(await objects.getBytes("2SPNY716211N9"))).toBe('{"a":"x","b":1}');
    });

    it("puts the same node twice at one address and lists it once", async () => {
      const { objects } = current();
      const first = await objects.put({ type: "text/1", text: "same" });
      const second = await objects.put({ text: "same", type: "text/1" }, { durable: true });
      expect(second).toBe(first);
      expect(await collect(objects.list())).toEqual([first]);
    });

    it("returns putMany addresses in input order, repeats included, durable or not", async () => {
      const { objects } = current();
      const nodes = [{ n: 1 }, { n: 2 }, { n: 1 }, "text", [1, 2]];
      const expected = await Promise.all(nodes.map((node) => objects.put(node)));
      for (const durable of [false, true]) expect(await objects.putMany(nodes, { durable })).toEqual(expected);
      expect(await objects.putMany([])).toEqual([]);
    });

    it("puts a batch of hundreds of nodes, repeats and existing nodes included, listing each once", async () => {
      const { objects } = current();
      const nodes = Array.from({ length: 300 }, (_, index) => ({ type: "text/1", text: `batch node ${index}` }));
      const existing = await objects.putMany(nodes.slice(0, 50), { durable: true });
      const plain = [...nodes.slice(0, 200), ...nodes.slice(0, 50)];
      const plainAddresses = await objects.putMany(plain);
      expect(plainAddresses.slice(0, 50)).toEqual(existing);
      expect(plainAddresses.slice(200)).toEqual(existing);
      const durable = nodes.slice(100);
      const durableAddresses = await objects.putMany(durable, { durable: true });
      expect(durableAddresses.slice(0, 100)).toEqual(plainAddresses.slice(100, 200));
      for (const [index, address] of durableAddresses.entries())
        expect(await objects.get(address)).toEqual(durable[index]);
      for (const [index, address] of plainAddresses.entries()) expect(await objects.get(address)).toEqual(plain[index]);
      const listed = await collect(objects.list());
      expect(listed.length).toBe(300);
      expect(new Set(listed).size).toBe(300);
      expect(await collect(objects.listTemporaryFiles())).toEqual([]);
    });

    it("writes nothing from a batch holding a value that is not JSON, small or large", async () => {
      const { objects } = current();
      await expect(objects.putMany([{ ok: 1 }, { bad: 1n }])).rejects.toThrow(InvalidJsonValueError);
      const large = [...Array.from({ length: 200 }, (_, index) => ({ ok: index })), { bad: 1n }];
      await expect(objects.putMany(large)).rejects.toThrow(InvalidJsonValueError);
      expect(await collect(objects.list())).toEqual([]);
    });

    it("gives every get a fresh copy that callers may change", async () => {
      const { objects } = current();
      const address = await objects.put({ list: [1] });
      const copy = (await objects.get(address)) as { list: number[] };
      copy.list.push(2);
      expect(await objects.get(address)).toEqual({ list: [1] });
    });

    it("accepts addresses in any case and answers in upper case", async () => {
      const { objects } = current();
      const address = await objects.put("hello");
      expect(address).toBe("B1XRH20GCX3FB");
      expect(await objects.get("b1xrh20gcx3fb")).toBe("hello");
      expect(await objects.has("b1xrh20gcx3fb")).toBe(true);
    });

    it("tells whether a node exists, deletes it, and ignores deleting it again", async () => {
      const { objects } = current();
      const address = await objects.put({ gone: true });
      expect(await objects.has(address)).toBe(true);
      await objects.delete(address);
      await objects.delete(address);
      expect(await objects.has(address)).toBe(false);
      await expect(objects.get(address)).rejects.toThrow(NodeNotFoundError);
      await expect(objects.getBytes(address)).rejects.toThrow(NodeNotFoundError);
    });

    it("deletes a node only if it was last written before the cutoff", async () => {
      const { objects } = current();
      const address = await objects.put({ aging: true });
      const writtenAt = (await objects.writtenAt(address)) as number;
      expect(await objects.deleteIfWrittenBefore(address, writtenAt)).toBe(false);
      expect(await objects.get(address)).toEqual({ aging: true });
      expect(await objects.deleteIfWrittenBefore(address.toLowerCase(), writtenAt + 1)).toBe(true);
      expect(await objects.has(address)).toBe(false);
      expect(await objects.deleteIfWrittenBefore(address, writtenAt + 1)).toBe(false);
    });

    it("rejects malformed addresses in every method with a clear error", async () => {
      const { objects, refs } = current();
      for (const input of MALFORMED_ADDRESSES) {
        await expect(objects.get(input)).rejects.toThrow(InvalidAddressError);
        await expect(objects.getBytes(input)).rejects.toThrow(InvalidAddressError);
        await expect(objects.has(input)).rejects.toThrow(InvalidAddressError);
        await expect(objects.delete(input)).rejects.toThrow(InvalidAddressError);
        await expect(objects.deleteIfWrittenBefore(input, 0)).rejects.toThrow(InvalidAddressError);
        await expect(walkNodes(objects, [input])).rejects.toThrow(InvalidAddressError);
        await expect(refs.updateThread("01JD0000000000000000000001", input, {})).rejects.toThrow(InvalidAddressError);
      }
      await expect(objects.get("../x")).rejects.toThrow('"../x" is not a node address');
      expect(await collect(objects.list())).toEqual([]);
    });

    it("finds the stored addresses a prefix starts, in address order, in any case, at most `limit`", async () => {
      const { objects } = current();
      const { prefix, nodes, addresses } = nodesSharingAnAddressPrefix();
      const others = Array.from({ length: 200 }, (_, n) => ({ other: n }));
      await objects.putMany([...nodes, ...others]);
      const both = [...addresses].sort();
      expect(await objects.findAddresses(prefix, 10)).toEqual(both);
      expect(await objects.findAddresses(prefix.toLowerCase(), 1)).toEqual(both.slice(0, 1));
      expect(await objects.findAddresses(prefix, 0)).toEqual([]);
      const [whole] = both as [string];
      expect(await objects.findAddresses(whole.toLowerCase(), 10)).toEqual([whole]);
      expect(await objects.findAddresses(whole.slice(0, 12), 10)).toEqual([whole]);
      const listed = await collect(objects.list());
      for (const address of listed.slice(0, 20)) {
        const starting = listed.filter((other) => other.startsWith(address.slice(0, 5))).sort();
        expect(await objects.findAddresses(address.slice(0, 5), 10)).toEqual(starting);
      }
      const absent = "2W53JPNXF556H"; // {}, not stored
      expect(await objects.findAddresses(absent.slice(0, 6), 10)).toEqual([]);
    });

    it("refuses to search for a prefix shorter than 4 characters or not of an address", async () => {
      const { objects } = current();
      await objects.put({});
      for (const input of ["", "2", "2W5", "../x", "2W5/", "ILOU", "G000", "2W53JPNXF556HH", "2W53 "]) {
        await expect(objects.findAddresses(input, 10)).rejects.toThrow(InvalidAddressError);
      }
      await expect(objects.findAddresses("2W5", 10)).rejects.toThrow('"2W5" is too short to name a node');
      await expect(objects.findAddresses("2W53", -1)).rejects.toThrow(RangeError);
      expect(await objects.findAddresses("2w53", 10)).toEqual(["2W53JPNXF556H"]);
    });

    it("lists every address, and tells each one's write time", async () => {
      const { objects } = current();
      const before = Date.now() - 2000;
      const addresses = await objects.putMany([{ a: 1 }, { b: 2 }, { c: 3 }]);
      expect((await collect(objects.list())).sort()).toEqual([...addresses].sort());
      for (const address of addresses) expect(await objects.writtenAt(address.toLowerCase())).toBeGreaterThan(before);
      expect(await objects.writtenAt("2W53JPNXF556H")).toBeNull();
      await expect(objects.writtenAt("../x")).rejects.toThrow(InvalidAddressError);
      expect(await collect(objects.listTemporaryFiles())).toEqual([]);
    });

    it("refreshes the write time of a node that is put again", async () => {
      const { objects } = current();
      const address = await objects.put({ old: true });
      const first = await objects.writtenAt(address);
      await Bun.sleep(25);
      await objects.put({ old: true });
      expect(await collect(objects.list())).toEqual([address]);
      expect((await objects.writtenAt(address)) ?? 0).toBeGreaterThan(first ?? 0);
    });

    it("refuses to delete a temporary file it did not list", async () => {
      const { objects } = current();
      await expect(objects.deleteTemporaryFile("../refs.db")).rejects.toThrow();
    });

    it("walks every reachable node once, refs in field order, reporting missing ones", async () => {
      const { objects } = current();
      const samples = createSampleNodes();
      await objects.putMany(Object.values(samples).filter((node) => nodeKind(node) !== "transcript/1"));
      const step = await objects.put(samples["thread-step/1"]);
      const visited: string[] = [];
      const missing: string[] = [];
      const result = await walkNodes(objects, [step, step], {
        visit: (_address, node) => void visited.push(nodeKind(node) ?? "json"),
        onMissing: (address) => void missing.push(address),
      });
      expect(visited).toEqual([
        "thread-step/1",
        "thread-start/1",
        "workflow/1",
        "output/1",
        "text/1",
        "agent-run/1",
        "text/1",
        "text/1",
      ]);
      expect(missing).toHaveLength(1);
      expect(result).toEqual({ visited: 8, missing: 1, corrupt: 0 });
      await expect(walkNodes(objects, [step])).rejects.toThrow(NodeNotFoundError);
    });
  });
}
