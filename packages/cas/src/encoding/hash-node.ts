import type { Address } from "@uwf/protocol";
import { canonicalizeJsonBytes } from "./canonicalize-json.ts";
import { encodeAddress } from "./encode-address.ts";

/** A node ready to store: its canonical bytes and the address they hash to. */
export interface HashedNode {
  address: Address;
  bytes: Uint8Array;
}

/** XXH64 (seed 0) of exactly these bytes, as an address. Bun's native hash; xxhash-wasm agrees (see tests). */
export function hashBytes(bytes: Uint8Array): Address {
  return encodeAddress(BigInt.asUintN(64, Bun.hash.xxHash64(bytes, 0n)));
}

/** Canonical JSON (RFC 8785) of the node, UTF-8 encoded, and its address. */
export function hashNode(node: unknown): HashedNode {
  const bytes = canonicalizeJsonBytes(node);
  return { address: hashBytes(bytes), bytes };
}

/** The address a node would be stored under, without storing it (parents can name children before a batch is written). */
export function addressOfNode(node: unknown): Address {
  return hashBytes(canonicalizeJsonBytes(node));
}
