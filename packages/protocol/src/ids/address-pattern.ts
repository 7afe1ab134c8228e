/** Crockford base32 alphabet, the address digits in order of value. */
export const ADDRESS_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** 64 bits in 13 base32 digits: the first digit carries only 4 bits, so it is 0-F. */
export const ADDRESS_PATTERN = /^[0-9A-F][0-9A-HJKMNP-TV-Z]{12}$/;

/** A node address as stored and printed: always upper case. */
export type Address = string;

/** Addresses are case-insensitive on input; returns the canonical form, or null when malformed. */
export function normalizeAddress(input: string): Address | null {
  const upper = input.toUpperCase();
  return ADDRESS_PATTERN.test(upper) ? upper : null;
}
