import type { Address, VerifyProblem } from "@uwf/protocol";

/** The problem `verify` reports for a node that is referenced, by `referrer` or as a root (null), but not in the store. */
export function missingNodeProblem(address: Address, referrer: Address | null): VerifyProblem {
  const message =
    referrer === null
      ? `root ${address} is not in the store`
      : `node ${address}, referenced by ${referrer}, is not in the store`;
  return { kind: "missing", address, referrer, message };
}
