import { type Address, normalizeAddress } from "@uwf/protocol";
import { parseAddressPrefix } from "../encoding/parse-address-prefix.ts";
import { AddressPrefixNotFoundError } from "../errors/address-prefix-not-found-error.ts";
import { AmbiguousAddressError } from "../errors/ambiguous-address-error.ts";
import type { ObjectStore } from "./object-store.ts";

/** Candidates an ambiguous prefix reports. */
const CANDIDATES_SHOWN = 10;

/**
 * The address a person typed, as git resolves a short object name: a whole address as it is (read
 * it to learn whether it is stored), or the one stored address that starts with a prefix of at least
 * 4 characters. InvalidAddressError, AddressPrefixNotFoundError or AmbiguousAddressError otherwise.
 */
export async function resolveAddress(objects: Pick<ObjectStore, "findAddresses">, input: string): Promise<Address> {
  const whole = normalizeAddress(input);
  if (whole !== null) return whole;
  const prefix = parseAddressPrefix(input);
  const candidates = await objects.findAddresses(prefix, CANDIDATES_SHOWN + 1);
  const [only] = candidates;
  if (only === undefined) throw new AddressPrefixNotFoundError(prefix);
  if (candidates.length > 1) {
    throw new AmbiguousAddressError(
      prefix,
      candidates.slice(0, CANDIDATES_SHOWN),
      candidates.length > CANDIDATES_SHOWN,
    );
  }
  return only;
}
