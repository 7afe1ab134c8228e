import type { Address } from "@uwf/protocol";

/** What a scan learned about one address. */
export type RefGraphEntry = { state: "read"; refs: Address[] } | { state: "corrupt" } | { state: "unread" };

/** The refs of every node a scan of the object store read, so a walk need not read them again. */
export interface RefGraph {
  /** A node read and verified, with its refs in field order. */
  addRead(address: Address, refs: readonly Address[]): void;
  /** A node that failed verification: stored, but its refs are unknown. */
  addCorrupt(address: Address): void;
  /** "unread" for an address the scan did not read (absent, or written since). */
  lookup(address: Address): RefGraphEntry;
}

const UNREAD = -1;
const CORRUPT = -2;

/**
 * Held compactly enough for a million-node store: each address is one string, numbered once
 * by a Map, and refs are those numbers in typed arrays, so a node referenced from several
 * places costs no extra strings. About 130 bytes a node in Bun 1.4 (a Map from address to an
 * array of ref strings takes about 600).
 */
export function createRefGraph(): RefGraph {
  const numbers = new Map<Address, number>();
  const addresses: Address[] = [];
  /** Per address number: where its refs start in `targets`, or UNREAD / CORRUPT. */
  let refsStart = new Int32Array(1024);
  let refsEnd = new Int32Array(1024);
  let targets = new Int32Array(4096);
  let targetCount = 0;

  function numberOf(address: Address): number {
    let number = numbers.get(address);
    if (number === undefined) {
      number = addresses.length;
      numbers.set(address, number);
      addresses.push(address);
      if (number >= refsStart.length) {
        refsStart = grow(refsStart, number + 1);
        refsEnd = grow(refsEnd, number + 1);
      }
      refsStart[number] = UNREAD;
    }
    return number;
  }

  return {
    addRead(address, refs) {
      const number = numberOf(address);
      if (targetCount + refs.length > targets.length) targets = grow(targets, targetCount + refs.length);
      const start = targetCount;
      for (const ref of refs) targets[targetCount++] = numberOf(ref);
      refsStart[number] = start;
      refsEnd[number] = targetCount;
    },
    addCorrupt(address) {
      refsStart[numberOf(address)] = CORRUPT;
    },
    lookup(address) {
      const number = numbers.get(address);
      const start = number === undefined ? UNREAD : (refsStart[number] as number);
      if (start === UNREAD) return { state: "unread" };
      if (start === CORRUPT) return { state: "corrupt" };
      const refs: Address[] = [];
      const end = refsEnd[number as number] as number;
      for (let index = start; index < end; index++) refs.push(addresses[targets[index] as number] as Address);
      return { state: "read", refs };
    },
  };
}

function grow(array: Int32Array<ArrayBuffer>, minimumLength: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(Math.max(minimumLength, array.length * 2));
  larger.set(array);
  return larger;
}
