import type { Address } from "@uwf/protocol";
import { addressOfNode } from "../encoding/hash-node.ts";

/**
 * Two small JSON nodes whose addresses start with the same `length` characters, found by hashing
 * `{ tag, n }` for n = 0, 1, ... (about 900 tries for 4 characters): what a test of an ambiguous
 * short address stores. `firstDigits` limits the shared prefix's first character (the default,
 * 8-F, can start no thread id, whose first character is at most 7).
 */
export function nodesSharingAnAddressPrefix(options: { length?: number; tag?: string; firstDigits?: string } = {}): {
  prefix: string;
  nodes: [unknown, unknown];
  addresses: [Address, Address];
} {
  const length = options.length ?? 4;
  const tag = options.tag ?? "shared-prefix";
  const firstDigits = options.firstDigits ?? "89ABCDEF";
  const seen = new Map<string, { node: unknown; address: Address }>();
  for (let n = 0; ; n++) {
    const node = { tag, n };
    const address = addressOfNode(node);
    if (!firstDigits.includes(address.charAt(0))) continue;
    const prefix = address.slice(0, length);
    const earlier = seen.get(prefix);
    if (earlier !== undefined) return { prefix, nodes: [earlier.node, node], addresses: [earlier.address, address] };
    seen.set(prefix, { node, address });
  }
}
