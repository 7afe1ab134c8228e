import { hashBytes } from "../encoding/hash-node.ts";
import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ChainLink } from "./chain-refs.ts";

/**
 * Chain links with their addresses in canonical form. Bytes that do not hash to their address are
 * refused, so the cache never holds a link its node could not have produced.
 */
export function checkChainLinks(links: readonly ChainLink[]): ChainLink[] {
  return links.map((link, index) => {
    if (typeof link !== "object" || link === null || !(link.bytes instanceof Uint8Array)) {
      throw new InvalidRecordError("chain link", [`${index}: expected { address, prev, bytes: Uint8Array }`]);
    }
    const checked = { address: parseAddress(link.address), prev: parseAddress(link.prev), bytes: link.bytes };
    const actual = hashBytes(checked.bytes);
    if (actual !== checked.address) {
      throw new InvalidRecordError("chain link", [`${index}: its bytes hash to ${actual}, not ${checked.address}`]);
    }
    return checked;
  });
}
