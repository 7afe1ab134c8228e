import { InvalidAddressError } from "../errors/invalid-address-error.ts";

/** The fewest leading characters that name a node, as git asks of a short object name. */
export const MIN_ADDRESS_PREFIX = 4;

const ADDRESS_PREFIX = /^[0-9A-F][0-9A-HJKMNP-TV-Z]{3,12}$/;

/**
 * The canonical (upper-case) form of the start of a node address: 4 to 13 characters, a whole
 * address included, or InvalidAddressError saying so, so a prefix never reaches storage unchecked and
 * never asks the store to search more than one shard.
 */
export function parseAddressPrefix(input: unknown): string {
  if (typeof input !== "string") throw new InvalidAddressError(String(input), { prefix: true });
  const upper = input.toUpperCase();
  if (!ADDRESS_PREFIX.test(upper)) throw new InvalidAddressError(input, { prefix: true });
  return upper;
}

/** Whether a string (any case) is the start of an address long enough to name a node; for callers that also accept thread ids. */
export function isAddressPrefix(input: string): boolean {
  return ADDRESS_PREFIX.test(input.toUpperCase());
}
