import { parseAddressPrefix } from "../encoding/parse-address-prefix.ts";

/** The prefix of an address search in canonical form; the limit a non-negative whole number. */
export function checkAddressPrefixQuery(prefix: string, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`an address search's limit must be a non-negative integer, got ${limit}`);
  }
  return parseAddressPrefix(prefix);
}
