import { ADDRESS_ALPHABET, type Address } from "@uwf/protocol";

const MASK_32 = 0xffff_ffffn;

/**
 * A 64-bit hash as 13 Crockford base32 digits, most significant first: 4 bits in the first
 * digit (so it is 0-F), then 12 digits of 5 bits. Done on two 30-bit halves in plain numbers
 * because bigint arithmetic per digit is several times slower.
 */
export function encodeAddress(hash: bigint): Address {
  if (hash < 0n || hash > 0xffff_ffff_ffff_ffffn) throw new RangeError(`${hash} is not an unsigned 64-bit value`);
  const high = Number(hash >> 32n);
  const low = Number(hash & MASK_32);
  // Bits 63-60, then bits 59-30 and 29-0.
  const top = high >>> 28;
  const upper = (high & 0x0fff_ffff) * 4 + (low >>> 30);
  const lower = low & 0x3fff_ffff;
  return ADDRESS_ALPHABET.charAt(top) + sixDigits(upper) + sixDigits(lower);
}

function sixDigits(value: number): string {
  return (
    ADDRESS_ALPHABET.charAt((value >>> 25) & 31) +
    ADDRESS_ALPHABET.charAt((value >>> 20) & 31) +
    ADDRESS_ALPHABET.charAt((value >>> 15) & 31) +
    ADDRESS_ALPHABET.charAt((value >>> 10) & 31) +
    ADDRESS_ALPHABET.charAt((value >>> 5) & 31) +
    ADDRESS_ALPHABET.charAt(value & 31)
  );
}

/** The 64-bit value an address stands for; the inverse of encodeAddress (the address must be valid). */
export function decodeAddress(address: Address): bigint {
  let value = 0n;
  for (const digit of address) value = (value << 5n) | BigInt(ADDRESS_ALPHABET.indexOf(digit));
  return value;
}
