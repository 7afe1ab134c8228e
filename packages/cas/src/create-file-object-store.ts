import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync } from "node:fs";
import type { Address } from "@uwf/protocol";
import { CorruptNodeError } from "./corrupt-node-error.ts";
import { hashBytes, hashNode } from "./hash-node.ts";
import { NodeNotFoundError } from "./node-not-found-error.ts";
import {
  OBJECT_FILE,
  objectLocation,
  SHARD_DIRECTORY,
  TEMPORARY_FILE,
  TEMPORARY_FILE_NAME,
} from "./object-file-layout.ts";
import { parseAddress } from "./parse-address.ts";
import { parseVerifiedNode } from "./parse-verified-node.ts";
import type { ObjectStore, PutManyOptions, StoredObjectInfo, TemporaryFileInfo } from "./store.ts";
import { type ObjectFileWrite, writeObjectFiles } from "./write-object-files.ts";

/**
 * Objects as files under `root` (see object-file-layout.ts). Synchronous node:fs calls behind
 * the async interface: in Bun they are the fastest way to do many small file operations, and
 * the interface stays async for backends that need it. The root is created on first write.
 */
export function createFileObjectStore(root: string): ObjectStore {
  /** Shard directories known to exist, so a put costs no mkdir call after the first. */
  const knownDirectories = new Set<string>();

  function putAll(nodes: readonly unknown[], options: PutManyOptions = {}): Address[] {
    // Encode everything first: an unencodable node fails the batch before any file is touched.
    const hashed = nodes.map(hashNode);
    const writes: ObjectFileWrite[] = [];
    const parentDirectories = new Set<string>();
    const planned = new Set<string>();
    for (const { address, bytes } of hashed) {
      if (planned.has(address)) continue;
      planned.add(address);
      const { directory, path } = objectLocation(root, address);
      if (freshen(path)) continue;
      if (!knownDirectories.has(directory)) {
        if (mkdirSync(directory, { recursive: true }) !== undefined) parentDirectories.add(root);
        knownDirectories.add(directory);
      }
      writes.push({ directory, path, bytes });
    }
    if (writes.length === 0) return hashed.map((entry) => entry.address);
    const writeOptions = { durable: options.durable === true, parentDirectories: [...parentDirectories] };
    try {
      writeObjectFiles(writes, writeOptions);
    } catch (error) {
      if (!isMissing(error)) throw error;
      // A shard directory vanished after it was cached (removed by hand): recreate and retry once.
      knownDirectories.clear();
      for (const write of writes) mkdirSync(write.directory, { recursive: true });
      writeObjectFiles(writes, { ...writeOptions, parentDirectories: [root] });
    }
    return hashed.map((entry) => entry.address);
  }

  function readVerified(input: string): { address: Address; bytes: Uint8Array } {
    const address = parseAddress(input);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(objectLocation(root, address).path);
    } catch (error) {
      if (isMissing(error)) throw new NodeNotFoundError(address);
      throw error;
    }
    const actual = hashBytes(bytes);
    if (actual !== address) throw new CorruptNodeError(address, `its content hashes to ${actual}`);
    return { address, bytes };
  }

  return {
    put: async (node, options) => putAll([node], options)[0] as Address,
    putMany: async (nodes, options) => putAll(nodes, options),
    get: async (address) => parseVerifiedNode(readVerified(address)),
    getBytes: async (address) => readVerified(address).bytes,
    has: async (address) => existsSync(objectLocation(root, parseAddress(address)).path),
    delete: async (address) => unlinkIfPresent(objectLocation(root, parseAddress(address)).path),
    async *list(): AsyncGenerator<StoredObjectInfo> {
      for await (const { shard, entry, writtenAt } of listShardEntries(root, OBJECT_FILE)) {
        yield { address: `${shard}${entry.slice(0, 11)}`, writtenAt };
      }
    },
    async *listTemporaryFiles(): AsyncGenerator<TemporaryFileInfo> {
      for await (const { shard, entry, writtenAt } of listShardEntries(root, TEMPORARY_FILE)) {
        yield { name: `${shard}/${entry}`, writtenAt };
      }
    },
    deleteTemporaryFile: async (name) => {
      if (!TEMPORARY_FILE_NAME.test(name)) throw new Error(`"${name}" is not a temporary file of this store`);
      unlinkIfPresent(`${root}/${name}`);
    },
  };
}

/** Refreshes an existing object's write time (see ObjectStore.put); false when it does not exist. */
function freshen(path: string): boolean {
  if (!existsSync(path)) return false;
  const now = new Date();
  try {
    utimesSync(path, now, now);
    return true;
  } catch (error) {
    // Deleted (by gc) between the two calls: write it again.
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Entries of every shard directory whose names match `pattern`, with their modification times. */
async function* listShardEntries(
  root: string,
  pattern: RegExp,
): AsyncGenerator<{ shard: string; entry: string; writtenAt: number }> {
  for (const shard of readDirectoryIfPresent(root)) {
    if (!SHARD_DIRECTORY.test(shard)) continue;
    for (const entry of readDirectoryIfPresent(`${root}/${shard}`)) {
      if (!pattern.test(entry)) continue;
      // Gone since the directory was read (deleted by a concurrent gc): not an object any more.
      const stats = statSync(`${root}/${shard}/${entry}`, { throwIfNoEntry: false });
      if (stats !== undefined) yield { shard, entry, writtenAt: stats.mtimeMs };
    }
  }
}

function readDirectoryIfPresent(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (error) {
    if (isMissing(error) || (error as { code?: unknown }).code === "ENOTDIR") return [];
    throw error;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
