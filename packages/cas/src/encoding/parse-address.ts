import { type Address, normalizeAddress } from "@uwf/protocol";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";

/**
 * The canonical (upper-case) form of a node address, or InvalidAddressError. Every store
 * method calls this before it builds a path or a query, so `../x`, empty strings, wrong
 * lengths and letters outside Crockford base32 (I, L, O, U) never reach storage.
 */
export function parseAddress(input: unknown): Address {
  if (typeof input !== "string") throw new InvalidAddressError(String(input));
  const address = normalizeAddress(input);
  if (address === null) throw new InvalidAddressError(input);
  return address;
}

/** Whether a string is an address (any case); for callers that tell addresses from thread ids or names. */
export function isAddress(input: string): boolean {
  return normalizeAddress(input) !== null;
}
