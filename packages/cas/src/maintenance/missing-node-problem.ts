import type { Address, VerifyProblem } from "@uwf/protocol";

/**
 * The problem `verify` reports for a node that is referenced, by `referrer` or as a root (null), but not in
 * the store. A root that is the node of evaluation reports is named as theirs (`reports`: their ids).
 */
export function missingNodeProblem(
  address: Address,
  referrer: Address | null,
  reports: readonly string[] = [],
): VerifyProblem {
  const message =
    referrer !== null
      ? `node ${address}, referenced by ${referrer}, is not in the store`
      : reports.length > 0
        ? `eval report ${reports.join(", ")} names node ${address}, which is not in the store`
        : `root ${address} is not in the store`;
  return { kind: "missing", address, referrer, message };
}
