import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { type Address, InternalError } from "@uwf/protocol";
import { hashBytes, hashNode } from "../encoding/hash-node.ts";
import { parseAddress } from "../encoding/parse-address.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import { checkAddressPrefixQuery } from "../objects/check-address-prefix-query.ts";
import type { ObjectStore, PutManyOptions, TemporaryFileInfo } from "../objects/object-store.ts";
import { parseVerifiedNode } from "../objects/parse-verified-node.ts";
import {
  deleteObjectFileIfWrittenBefore,
  restoreSetAsideFile,
  unlinkIfPresent,
} from "./delete-object-file-if-written-before.ts";
import { freshenObjectFile } from "./freshen-object-file.ts";
import { isMissingFileError } from "./is-missing-file-error.ts";
import {
  OBJECT_FILE,
  objectLocation,
  SET_ASIDE_FILE,
  SET_ASIDE_FILE_NAME,
  SHARD_DIRECTORY,
  setAsidePath,
  TEMPORARY_FILE,
  TEMPORARY_FILE_NAME,
} from "./object-file-layout.ts";
import { putObjectFilesConcurrently } from "./put-object-files-concurrently.ts";
import { type ObjectFileWrite, writeObjectFiles } from "./write-object-files.ts";

/**
 * Non-durable batches of at least this many distinct nodes are written concurrently. Measured
 * in-process on ext4 (virtio disk, 2-core EPYC, Bun 1.4), median µs per new node, one file at
 * a time against concurrently: 48-85 against 170-200 for 1 node (two thread-pool round trips),
 * 46-49 against 60-67 for 6, 47-55 against 42-44 for 16, 48-56 against 38-44 for 32 to 256.
 * Batches of 4,096: 14,000-17,800 nodes/s against 22,000-24,500, using 1.75 cores instead of
 * one. Durable batches keep their one synchronous sync phase (write-object-files.ts).
 */
const CONCURRENT_BATCH_MINIMUM = 16;

/** Files in flight in a concurrent batch: 8 was slower, 64 no faster. */
const CONCURRENT_FILES = 32;

/**
 * Objects as files under `root` (see object-file-layout.ts). Synchronous node:fs calls behind
 * the async interface: in Bun they are the fastest way to do a few small file operations, and
 * the interface stays async for backends that need it. The exception is a large non-durable
 * batch, whose files are written concurrently on Bun's thread pool. The root is created on
 * first write.
 */
export function createFileObjectStore(root: string): ObjectStore {
  /** Shard directories known to exist, so a put costs no mkdir call after the first. */
  const knownDirectories = new Set<string>();

  async function putAll(nodes: readonly unknown[], options: PutManyOptions = {}): Promise<Address[]> {
    // Encode everything first: an unencodable node fails the batch before any file is touched.
    const hashed = nodes.map(hashNode);
    const objects: ObjectFileWrite[] = [];
    const planned = new Set<string>();
    for (const { address, bytes } of hashed) {
      if (planned.has(address)) continue;
      planned.add(address);
      const { directory, path } = objectLocation(root, address);
      objects.push({ directory, path, bytes });
    }
    const durable = options.durable === true;
    if (!durable && objects.length >= CONCURRENT_BATCH_MINIMUM) {
      for (const object of objects) ensureDirectory(object.directory);
      await putObjectFilesConcurrently(objects, CONCURRENT_FILES);
    } else {
      await putOneByOne(objects, durable);
    }
    return hashed.map((entry) => entry.address);
  }

  /** Creates a shard directory unless known to exist; true when that added an entry to the root. */
  function ensureDirectory(directory: string): boolean {
    if (knownDirectories.has(directory)) return false;
    const created = mkdirSync(directory, { recursive: true }) !== undefined;
    knownDirectories.add(directory);
    return created;
  }

  async function putOneByOne(objects: readonly ObjectFileWrite[], durable: boolean): Promise<void> {
    const now = new Date();
    const writes: ObjectFileWrite[] = [];
    const parentDirectories = new Set<string>();
    for (const object of objects) {
      if (freshenObjectFile(object.path, object.bytes, now)) continue;
      if (ensureDirectory(object.directory)) parentDirectories.add(root);
      writes.push(object);
    }
    if (writes.length === 0) return;
    const writeOptions = { durable, parentDirectories: [...parentDirectories] };
    try {
      await writeObjectFiles(writes, writeOptions);
    } catch (error) {
      if (!isMissingFileError(error)) throw error;
      // A shard directory vanished after it was cached (removed by hand): recreate and retry once.
      knownDirectories.clear();
      for (const write of writes) mkdirSync(write.directory, { recursive: true });
      await writeObjectFiles(writes, { ...writeOptions, parentDirectories: [root] });
    }
  }

  function readVerified(input: string): { address: Address; bytes: Uint8Array } {
    const address = parseAddress(input);
    const { directory, path } = objectLocation(root, address);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      if (!isMissingFileError(error)) throw error;
      bytes = readSetAside(directory, address);
    }
    const actual = hashBytes(bytes);
    if (actual !== address) throw new CorruptNodeError(address, `its content hashes to ${actual}`);
    return { address, bytes };
  }

  /** An object gc has set aside while it decides (or was killed deciding) is still the object. */
  function readSetAside(directory: string, address: Address): Uint8Array {
    try {
      return readFileSync(setAsidePath(directory, address));
    } catch (error) {
      if (isMissingFileError(error)) throw new NodeNotFoundError(address);
      throw error;
    }
  }

  return {
    put: async (node, options) => (await putAll([node], options))[0] as Address,
    putMany: (nodes, options) => putAll(nodes, options),
    get: async (address) => parseVerifiedNode(readVerified(address)),
    getBytes: async (address) => readVerified(address).bytes,
    has: async (input) => {
      const address = parseAddress(input);
      const { directory, path } = objectLocation(root, address);
      return existsSync(path) || existsSync(setAsidePath(directory, address));
    },
    delete: async (input) => {
      const address = parseAddress(input);
      const { directory, path } = objectLocation(root, address);
      unlinkIfPresent(path);
      unlinkIfPresent(setAsidePath(directory, address));
    },
    findAddresses: async (input, limit) => {
      const prefix = checkAddressPrefixQuery(input, limit);
      const shard = prefix.slice(0, 2);
      const rest = prefix.slice(2);
      const found = new Set<Address>();
      for (const entry of readDirectoryIfPresent(`${root}/${shard}`)) {
        // An object set aside by an interrupted gc is still the node (as in `list`).
        const name = OBJECT_FILE.test(entry) ? entry.slice(0, 11) : SET_ASIDE_FILE.test(entry) ? entry.slice(4) : null;
        if (name?.startsWith(rest)) found.add(`${shard}${name}`);
      }
      return [...found].sort().slice(0, limit);
    },
    deleteIfWrittenBefore: async (input, cutoff) => {
      const address = parseAddress(input);
      const { directory, path } = objectLocation(root, address);
      return deleteObjectFileIfWrittenBefore(path, setAsidePath(directory, address), cutoff);
    },
    async *list(): AsyncGenerator<Address> {
      for (const { shard, entries } of readShards(root)) {
        let names: Set<string> | undefined;
        for (const entry of entries) {
          if (OBJECT_FILE.test(entry)) yield `${shard}${entry.slice(0, 11)}`;
          else if (SET_ASIDE_FILE.test(entry)) {
            // Set aside by a gc killed while deciding, with no object file beside it: it is the node.
            names ??= new Set(entries);
            if (!names.has(`${entry.slice(4)}.json`)) yield `${shard}${entry.slice(4)}`;
          }
        }
      }
    },
    writtenAt: async (input) => {
      const address = parseAddress(input);
      const { directory, path } = objectLocation(root, address);
      const stats =
        statSync(path, { throwIfNoEntry: false }) ??
        statSync(setAsidePath(directory, address), { throwIfNoEntry: false });
      return stats?.mtimeMs ?? null;
    },
    async *listTemporaryFiles(): AsyncGenerator<TemporaryFileInfo> {
      for (const { shard, entries } of readShards(root)) {
        for (const entry of entries) {
          const kind = TEMPORARY_FILE.test(entry) ? "temporary" : SET_ASIDE_FILE.test(entry) ? "set-aside" : null;
          if (kind === null) continue;
          const name = `${shard}/${entry}`;
          // Gone since the directory was read (finished, or removed by a concurrent gc): not a leftover.
          const stats = statSync(`${root}/${name}`, { throwIfNoEntry: false });
          if (stats !== undefined) yield { name, kind, writtenAt: stats.mtimeMs };
        }
      }
    },
    deleteTemporaryFile: async (name) => {
      if (TEMPORARY_FILE_NAME.test(name)) unlinkIfPresent(`${root}/${name}`);
      else if (SET_ASIDE_FILE_NAME.test(name)) {
        // It may be the only copy of a node: put back, unless the object file exists.
        restoreSetAsideFile(`${root}/${name}`, `${root}/${name.slice(0, 2)}/${name.slice(7)}.json`);
      } else throw new InternalError(`"${name}" is not a temporary file of this store`);
    },
  };
}

/** Each shard directory's entries, one directory read at a time. */
function* readShards(root: string): Generator<{ shard: string; entries: string[] }> {
  for (const shard of readDirectoryIfPresent(root)) {
    if (SHARD_DIRECTORY.test(shard)) yield { shard, entries: readDirectoryIfPresent(`${root}/${shard}`) };
  }
}

function readDirectoryIfPresent(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (error) {
    if (isMissingFileError(error) || (error as { code?: unknown }).code === "ENOTDIR") return [];
    throw error;
  }
}
