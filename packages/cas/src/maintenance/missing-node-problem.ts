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
  return { kind: "missing", address, referrer, message: messageOf(address, referrer, reports) };
}

function messageOf(address: Address, referrer: Address | null, reports: readonly string[]): string {
  if (referrer !== null) return `node ${address}, referenced by ${referrer}, is not in the store`;
  if (reports.length === 1) return `eval report ${reports[0]} names node ${address}, which is not in the store`;
  if (reports.length > 1) {
    return `eval reports ${reports.join(", ")} name node ${address}, which is not in the store`;
  }
  return `root ${address} is not in the store`;
}
