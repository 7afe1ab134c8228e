import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { hashBytes, hashNode } from "../encoding/hash-node.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { InvalidJsonValueError } from "../errors/invalid-json-value-error.ts";
import type { ObjectStore } from "../objects/object-store.ts";
import { MALFORMED_ADDRESSES } from "../testing/object-store-conformance.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { createFileObjectStore } from "./create-file-object-store.ts";

describe("createFileObjectStore", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let root: string;
  let objects: ObjectStore;
  beforeEach(() => {
    home = createTemporaryDirectory();
    root = join(home.path, "objects");
    objects = createFileObjectStore(root);
  });
  afterEach(() => home.remove());

  it("stores a node as objects/<2 chars>/<11 chars>.json holding its canonical bytes", async () => {
    const address = await objects.put({ b: 1, a: "x" });
    expect(readFileSync(join(root, "2S", "PNY716211N9.json"), "utf8")).toBe('{"a":"x","b":1}');
    expect(address).toBe("2SPNY716211N9");
  });

  it("detects a flipped byte on get and reports the address, never the data", async () => {
    const address = await objects.put({ type: "text/1", text: "the original text" });
    const path = join(root, address.slice(0, 2), `${address.slice(2)}.json`);
    const bytes = readFileSync(path);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0x01;
    writeFileSync(path, bytes);
    await expect(objects.get(address)).rejects.toThrow(CorruptNodeError);
    await expect(objects.getBytes(address.toLowerCase())).rejects.toThrow(`node ${address} is corrupt`);
  });

  it("repairs a corrupt object when the node is put again, one by one or in a large batch, durable or not", async () => {
    const nodes = manyNodes(40, "repaired");
    const addresses = await objects.putMany(nodes);
    const pathOf = (address: string) => join(root, address.slice(0, 2), `${address.slice(2)}.json`);
    const damage = (address: string, how: number) => {
      const bytes = readFileSync(pathOf(address));
      if (how === 0) bytes[3] = (bytes[3] as number) ^ 0x01;
      writeFileSync(pathOf(address), how === 1 ? bytes.subarray(0, 5) : how === 2 ? new Uint8Array() : bytes);
    };
    const cases: Array<[number, () => Promise<unknown>]> = [
      [0, () => objects.put(nodes[0])],
      [1, () => objects.put(nodes[1], { durable: true })],
      [2, () => objects.putMany([nodes[2], nodes[3]], { durable: true })],
      [3, () => objects.putMany(nodes)],
    ];
    for (const [index, put] of cases) {
      const address = addresses[index] as string;
      damage(address, index % 3);
      await expect(objects.get(address)).rejects.toThrow(CorruptNodeError);
      await put();
      expect(await objects.get(address)).toEqual(nodes[index]);
    }
    // A sound object is left in place: the same file, its write time refreshed.
    const inode = statSync(pathOf(addresses[5] as string)).ino;
    await objects.put(nodes[5]);
    expect(statSync(pathOf(addresses[5] as string)).ino).toBe(inode);
  });

  it("reports content that hashes to its name but is not JSON as corrupt", async () => {
    const bytes = new TextEncoder().encode("not json at all");
    const address = hashBytes(bytes);
    mkdirSync(join(root, address.slice(0, 2)), { recursive: true });
    writeFileSync(join(root, address.slice(0, 2), `${address.slice(2)}.json`), bytes);
    await expect(objects.get(address)).rejects.toThrow("not UTF-8 JSON");
  });

  it("rejects malformed addresses before building a path, so nothing is created, read or deleted", async () => {
    // Files where an unchecked "../x" or "../../etc" could land if joined into a path.
    writeFileSync(join(home.path, "x.json"), "{}");
    mkdirSync(join(home.path, "x"));
    writeFileSync(join(home.path, "x", ".json"), "{}");
    const traversals = [...MALFORMED_ADDRESSES, "../../../../x", "..", "../x.json", "/etc/passwd", "2W53JPNXF556H/"];
    for (const input of traversals) {
      for (const call of [objects.get, objects.getBytes, objects.has, objects.delete]) {
        await expect(call(input)).rejects.toThrow(InvalidAddressError);
      }
    }
    expect(existsSync(root)).toBe(false);
    expect(readdirSync(home.path).sort()).toEqual(["x", "x.json"]);
    expect(readdirSync(join(home.path, "x"))).toEqual([".json"]);
  });

  it("lists leftover temporary files apart from objects and deletes only those", async () => {
    const address = await objects.put({ kept: true });
    const shard = join(root, address.slice(0, 2));
    writeFileSync(join(shard, ".tmp-1a-2b-3c"), '{"half":');
    writeFileSync(join(shard, "notes.txt"), "not ours");
    const old = new Date(Date.now() - 10_000);
    utimesSync(join(shard, ".tmp-1a-2b-3c"), old, old);
    const listed: string[] = [];
    for await (const address of objects.list()) listed.push(address);
    expect(listed).toEqual([address]);
    const leftovers = [];
    for await (const leftover of objects.listTemporaryFiles()) leftovers.push(leftover);
    expect(leftovers).toEqual([
      { name: `${address.slice(0, 2)}/.tmp-1a-2b-3c`, kind: "temporary", writtenAt: old.getTime() },
    ]);
    await objects.deleteTemporaryFile(`${address.slice(0, 2)}/.tmp-1a-2b-3c`);
    await expect(objects.deleteTemporaryFile(`${address.slice(0, 2)}/notes.txt`)).rejects.toThrow();
    await expect(objects.deleteTemporaryFile(`${address.slice(0, 2)}/../../x.json`)).rejects.toThrow();
    expect(readdirSync(shard).sort()).toEqual([`${address.slice(2)}.json`, "notes.txt"]);
  });

  it("leaves no temporary files after durable and non-durable batches", async () => {
    const nodes = Array.from({ length: 50 }, (_, index) => ({ index, text: "x".repeat(index * 100) }));
    await objects.putMany(nodes.slice(0, 25), { durable: true });
    await objects.putMany(nodes.slice(25));
    for (const shard of readdirSync(root)) {
      for (const entry of readdirSync(join(root, shard))) expect(entry).toMatch(/^[0-9A-Z]{11}\.json$/);
    }
  });

  /** Every entry of every shard directory, which must all be whole objects. */
  function shardEntries(): string[] {
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)).map((entry) => `${shard}/${entry}`));
  }

  const manyNodes = (count: number, tag: string) =>
    Array.from({ length: count }, (_, index) => ({ type: "text/1", text: `${tag} ${index}`.repeat(1 + (index % 7)) }));

  it("writes a large batch with every address once, refreshing existing objects in place", async () => {
    const nodes = manyNodes(3000, "large");
    const existing = await objects.putMany(nodes.slice(0, 500));
    const old = new Date(Date.now() - 60_000);
    const before = existing.map((address) => {
      const path = join(root, address.slice(0, 2), `${address.slice(2)}.json`);
      utimesSync(path, old, old);
      return { path, inode: statSync(path).ino };
    });
    const batch = [...nodes, ...nodes.slice(0, 1000)]; // repeats too
    const addresses = await objects.putMany(batch);
    expect(addresses).toEqual(batch.map((node) => hashNode(node).address));
    const listed: string[] = [];
    for await (const address of objects.list()) listed.push(address);
    expect(listed.sort()).toEqual([...new Set(addresses)].sort());
    for (const [index, node] of nodes.entries()) expect(await objects.get(addresses[index] as string)).toEqual(node);
    for (const { path, inode } of before) {
      const stats = statSync(path);
      expect(stats.ino).toBe(inode);
      expect(stats.mtimeMs).toBeGreaterThan(old.getTime() + 30_000);
    }
    for (const entry of shardEntries()) expect(entry).toMatch(/^[0-9A-Z]{2}\/[0-9A-Z]{11}\.json$/);
  });

  it("fails a large batch holding an unencodable node before touching any file", async () => {
    const nodes: unknown[] = manyNodes(2000, "unencodable");
    nodes.push({ bad: 1n });
    await expect(objects.putMany(nodes)).rejects.toThrow(InvalidJsonValueError);
    expect(shardEntries()).toEqual([]);
  });

  for (const durable of [false, true]) {
    it(`leaves only whole objects and no temporary file when a large ${durable ? "durable " : ""}batch fails`, async () => {
      const nodes = manyNodes(2000, `failing ${durable}`);
      // A shard directory replaced by a file after it was created: writing into it fails (ENOTDIR).
      const broken = (await objects.put(nodes[1999])).slice(0, 2);
      rmSync(join(root, broken), { recursive: true });
      writeFileSync(join(root, broken), "not a directory");
      await expect(objects.putMany(nodes, { durable })).rejects.toThrow();
      expect(await Array.fromAsync(objects.listTemporaryFiles())).toEqual([]);
      rmSync(join(root, broken));
      const entries = shardEntries();
      // A durable batch renames nothing until every file is synced; a plain one keeps what it finished.
      if (durable) expect(entries).toEqual([]);
      else expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(entry).toMatch(/^[0-9A-Z]{2}\/[0-9A-Z]{11}\.json$/);
      for await (const address of objects.list()) await objects.get(address);
    });
  }

  it("recreates shard directories removed behind its back during a large batch", async () => {
    const nodes = manyNodes(2000, "vanished");
    const first = await objects.putMany(nodes.slice(0, 1000));
    for (const shard of new Set(first.map((address) => address.slice(0, 2))))
      rmSync(join(root, shard), { recursive: true });
    const addresses = await objects.putMany(nodes);
    for (const [index, node] of nodes.entries()) expect(await objects.get(addresses[index] as string)).toEqual(node);
    for (const entry of shardEntries()) expect(entry).toMatch(/^[0-9A-Z]{2}\/[0-9A-Z]{11}\.json$/);
  });

  it("recreates a shard directory removed behind its back", async () => {
    const address = await objects.put({ first: true });
    rmSync(join(root, address.slice(0, 2)), { recursive: true });
    for (const durable of [false, true]) {
      await objects.delete(address);
      rmSync(join(root, address.slice(0, 2)), { recursive: true, force: true });
      expect(await objects.put({ first: true }, { durable })).toBe(address);
      expect(await objects.get(address)).toEqual({ first: true });
    }
  });

  it("finds an object set aside by an interrupted gc by its prefix, and an object with a set-aside copy once", async () => {
    const [aside, both] = await objects.putMany([{ set: "aside" }, { set: "beside" }]);
    const path = (address: string) => join(root, address.slice(0, 2), `${address.slice(2)}.json`);
    const setAside = (address: string) => join(root, address.slice(0, 2), `.gc-${address.slice(2)}`);
    renameSync(path(aside as string), setAside(aside as string));
    copyFileSync(path(both as string), setAside(both as string));
    for (const address of [aside, both] as string[]) {
      expect(await objects.findAddresses(address.slice(0, 4), 10)).toContain(address);
      expect(await objects.findAddresses(address.slice(0, 12), 10)).toEqual([address]);
    }
  });
});
