import { ADDRESS_ALPHABET, type Address } from "@uwf/protocol";

/** What the walk does with an address the scan did not read (absent, or written since). */
export interface RefGraphWalkOptions {
  /** Reads a node now: its refs, `[]` when it cannot be followed (corrupt), null when it is not stored. */
  readLate: (address: Address) => Promise<readonly Address[] | null>;
  /** A reached node that is not stored; `referrer` is null for a root. */
  onMissing: (address: Address, referrer: Address | null) => void;
}

/** The refs of every node a scan of the object store read, so that a walk need not read them again. */
export interface RefGraph {
  /** A node read and verified, with its refs in field order, and a small number (0-255) the caller tags it with. */
  addRead(address: Address, refs: readonly Address[], tag?: number): void;
  /** A node that failed verification: stored, but its refs are unknown, so the walk stops there. */
  addCorrupt(address: Address): void;
  /**
   * Everything reachable from the roots, depth first in the order of walkNodes (roots in
   * order, then each node's refs in field order, each address once), so problems are found
   * in the order a walk that reads every node finds them.
   */
  walk(roots: Iterable<Address>, options: RefGraphWalkOptions): Promise<void>;
  /** After a walk: each node the scan read (not a corrupt one) that the walk did not reach, with its tag. */
  forEachUnreached(visit: (address: Address, tag: number) => void): void;
}

const UNREAD = 0;
const READ = 1;
const CORRUPT = 2;
const STATE = 3;
const SEEN = 4;

/**
 * Compact for a million-node store: an address is its 64-bit value as two int32 halves, nodes
 * are numbered in the order they are first met, a hash table maps halves to numbers, and refs
 * are numbers in one typed array. That is 18 bytes a node, 8-16 of hash table and 4 a ref (up
 * to twice that while arrays double), against about 130 bytes a node for a Map keyed by
 * address strings; strings are made again only for addresses the walk reports or reads.
 * verify of a 1,000,000-node store peaked at 250 MB this way, 700 MB with the Map.
 */
export function createRefGraph(): RefGraph {
  let count = 0;
  let high = new Int32Array(1024);
  let low = new Int32Array(1024);
  let flags = new Uint8Array(1024);
  let tags = new Uint8Array(1024);
  /** Where each node's refs sit in `targets`: from refsStart to refsEnd. */
  let refsStart = new Int32Array(1024);
  let refsEnd = new Int32Array(1024);
  let targets = new Int32Array(4096);
  let targetCount = 0;
  /** Open addressing, linear probing: node number + 1, or 0 for an empty slot. */
  let table = new Int32Array(2048);

  function numberOf(address: Address): number {
    const [addressHigh, addressLow] = splitAddress(address);
    let mask = table.length - 1;
    let slot = addressLow & mask;
    for (let entry = table[slot] as number; entry !== 0; entry = table[slot] as number) {
      if (high[entry - 1] === addressHigh && low[entry - 1] === addressLow) return entry - 1;
      slot = (slot + 1) & mask;
    }
    const number = count++;
    if (number === high.length) {
      high = grow(high);
      low = grow(low);
      flags = grow(flags);
      tags = grow(tags);
      refsStart = grow(refsStart);
      refsEnd = grow(refsEnd);
    }
    high[number] = addressHigh;
    low[number] = addressLow;
    if (count * 2 > table.length) {
      table = new Int32Array(table.length * 2);
      mask = table.length - 1;
      for (let existing = 0; existing < number; existing++) insert(existing, mask);
    }
    insert(number, mask);
    return number;
  }

  function insert(number: number, mask: number): void {
    let slot = (low[number] as number) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = number + 1;
  }

  function addressOf(number: number): Address {
    return joinAddress(high[number] as number, low[number] as number);
  }

  function addRead(address: Address, refs: readonly Address[], tag = 0): void {
    const number = numberOf(address);
    tags[number] = tag;
    while (targetCount + refs.length > targets.length) targets = grow(targets);
    const start = targetCount;
    for (const ref of refs) targets[targetCount++] = numberOf(ref);
    refsStart[number] = start;
    refsEnd[number] = targetCount;
    flags[number] = ((flags[number] as number) & ~STATE) | READ;
  }

  return {
    addRead,
    addCorrupt(address) {
      const number = numberOf(address);
      flags[number] = ((flags[number] as number) & ~STATE) | CORRUPT;
    },
    async walk(roots, options) {
      // Pairs of (node, referrer or -1), as walkNodes keeps them.
      let stack = new Int32Array(1024);
      let depth = 0;
      const push = (number: number, referrer: number) => {
        if (((flags[number] as number) & SEEN) !== 0) return;
        flags[number] = (flags[number] as number) | SEEN;
        if (depth + 2 > stack.length) stack = grow(stack);
        stack[depth++] = number;
        stack[depth++] = referrer;
      };
      const rootNumbers = [...roots].map(numberOf);
      for (let index = rootNumbers.length - 1; index >= 0; index--) push(rootNumbers[index] as number, -1);
      while (depth > 0) {
        const referrer = stack[--depth] as number;
        const number = stack[--depth] as number;
        const state = (flags[number] as number) & STATE;
        if (state === CORRUPT) continue;
        if (state === UNREAD) {
          const refs = await options.readLate(addressOf(number));
          if (refs === null) {
            options.onMissing(addressOf(number), referrer === -1 ? null : addressOf(referrer));
            continue;
          }
          addRead(addressOf(number), refs, tags[number]);
        }
        const start = refsStart[number] as number;
        for (let index = (refsEnd[number] as number) - 1; index >= start; index--) {
          push(targets[index] as number, number);
        }
      }
    },
    forEachUnreached(visit) {
      for (let number = 0; number < count; number++) {
        const flag = flags[number] as number;
        if ((flag & STATE) === READ && (flag & SEEN) === 0) visit(addressOf(number), tags[number] as number);
      }
    },
  };
}

const DIGITS = new Int8Array(128);
for (let index = 0; index < ADDRESS_ALPHABET.length; index++) DIGITS[ADDRESS_ALPHABET.charCodeAt(index)] = index;

/**
 * An address's 64-bit value as two int32s: the first six digits (29 bits) and the top 3 bits
 * of the seventh, then its low 2 bits and the last six digits (30 bits).
 */
function splitAddress(address: Address): [number, number] {
  let top = 0;
  for (let index = 0; index < 6; index++) top = top * 32 + (DIGITS[address.charCodeAt(index)] as number);
  const middle = DIGITS[address.charCodeAt(6)] as number;
  let bottom = 0;
  for (let index = 7; index < 13; index++) bottom = bottom * 32 + (DIGITS[address.charCodeAt(index)] as number);
  return [(top * 8 + (middle >>> 2)) | 0, ((middle & 3) * 0x4000_0000 + bottom) | 0];
}

/** The inverse of splitAddress. */
function joinAddress(high: number, low: number): Address {
  const middle = ((high & 7) << 2) | (low >>> 30);
  return sixDigits(high >>> 3) + ADDRESS_ALPHABET.charAt(middle) + sixDigits(low & 0x3fff_ffff);
}

function sixDigits(value: number): string {
  let digits = "";
  for (let shift = 25; shift >= 0; shift -= 5) digits += ADDRESS_ALPHABET.charAt((value >>> shift) & 31);
  return digits;
}

function grow<Items extends Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(items: Items): Items {
  const larger = new (items.constructor as new (length: number) => Items)(items.length * 2);
  larger.set(items);
  return larger;
}
