import { type Address, InternalError } from "@uwf/protocol";
import { hashNode } from "../encoding/hash-node.ts";
import { parseAddress } from "../encoding/parse-address.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import { checkAddressPrefixQuery } from "../objects/check-address-prefix-query.ts";
import type { ObjectStore, TemporaryFileInfo } from "../objects/object-store.ts";
import { parseVerifiedNode } from "../objects/parse-verified-node.ts";

/**
 * Objects in a Map, with the file store's semantics: the same canonical bytes and addresses,
 * address validation, write times refreshed on re-put, and `get` returning a fresh copy
 * (parsed from the stored bytes) so callers can never mutate what is stored.
 */
export function createMemoryObjectStore(): ObjectStore {
  const objects = new Map<Address, { bytes: Uint8Array; writtenAt: number }>();

  function putAll(nodes: readonly unknown[]): Address[] {
    const hashed = nodes.map(hashNode);
    const writtenAt = Date.now();
    for (const { address, bytes } of hashed) {
      const existing = objects.get(address);
      if (existing === undefined) objects.set(address, { bytes, writtenAt });
      else existing.writtenAt = writtenAt;
    }
    return hashed.map((entry) => entry.address);
  }

  function read(input: string): { address: Address; bytes: Uint8Array } {
    const address = parseAddress(input);
    const stored = objects.get(address);
    if (stored === undefined) throw new NodeNotFoundError(address);
    return { address, bytes: stored.bytes };
  }

  return {
    put: async (node) => putAll([node])[0] as Address,
    putMany: async (nodes) => putAll(nodes),
    get: async (address) => parseVerifiedNode(read(address)),
    getBytes: async (address) => read(address).bytes.slice(),
    has: async (address) => objects.has(parseAddress(address)),
    findAddresses: async (input, limit) => {
      const prefix = checkAddressPrefixQuery(input, limit);
      return [...objects.keys()]
        .filter((address) => address.startsWith(prefix))
        .sort()
        .slice(0, limit);
    },
    delete: async (address) => {
      objects.delete(parseAddress(address));
    },
    deleteIfWrittenBefore: async (input, cutoff) => {
      const address = parseAddress(input);
      const stored = objects.get(address);
      if (stored === undefined || stored.writtenAt >= cutoff) return false;
      objects.delete(address);
      return true;
    },
    async *list(): AsyncGenerator<Address> {
      // A snapshot, so callers may delete while they iterate (as gc does).
      yield* [...objects.keys()];
    },
    writtenAt: async (address) => objects.get(parseAddress(address))?.writtenAt ?? null,
    async *listTemporaryFiles(): AsyncGenerator<TemporaryFileInfo> {
      // Writes to a Map cannot be interrupted halfway: nothing is ever left over.
    },
    deleteTemporaryFile: async (name) => {
      throw new InternalError(`"${name}" is not a temporary file of this store`);
    },
  };
}
