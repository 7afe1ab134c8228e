import type { ThreadRecord } from "@uwf/protocol";
import type { BranchLink } from "../refs/branch-refs.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

/** The `security` branch of `parent`'s step 2 (its thread `sampleThreadId(2)`): the link and the branch's record. */
export function sampleBranch(parent: string): { link: BranchLink; record: ThreadRecord } {
  const link = {
    parent,
    step: 2,
    key: "security",
    index: 0,
    thread: sampleThreadId(2),
    createdAt: new Date().toISOString(),
  };
  const branchOf = { thread: parent, step: 2, branch: "security", address: "B1XRH20GCX3FB", role: "reviewer" };
  return { link, record: sampleThreadRecord({ id: link.thread, head: branchOf.address, stepCount: 2, branchOf }) };
}
