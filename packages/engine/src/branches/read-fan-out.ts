import type { ObjectStore } from "@uwf/cas";
import type { Address, FanOutNode, ThreadStepNode } from "@uwf/protocol";
import { storedNodeAs } from "../history/stored-node.ts";

/** The fan-out a step's reply routed to (its `fan-out/1` node), or null for a step that did not fan out. */
export async function readFanOut(objects: ObjectStore, stepAddress: Address | string): Promise<FanOutNode | null> {
  const step = storedNodeAs<ThreadStepNode>("thread-step/1", stepAddress, await objects.get(stepAddress as Address));
  if (step.fanOut === undefined) return null;
  return storedNodeAs<FanOutNode>("fan-out/1", step.fanOut, await objects.get(step.fanOut));
}

/** The policy as people write it: `all`, `all-settled`, `any`, `quorum:N`. */
export function describePolicy(policy: FanOutNode["join"]["policy"]): string {
  return typeof policy === "string" ? policy : `quorum:${policy.quorum}`;
}
