import type { ObjectStore } from "@uwf/cas";
import type { Address, FanOutNode, ThreadStepNode } from "@uwf/protocol";
import { storedNodeAs } from "../history/stored-node.ts";

/**
 * The fan-outs this process read lately, by the address of the step that made them. A step's node never
 * changes (its address is its content), so each branch step of a wide fan-out, which looks at its
 * parent's fan-out to settle it, reads the two nodes once rather than once a branch. Per object store.
 */
const recentFanOuts = new WeakMap<ObjectStore, Map<string, FanOutNode | null>>();
const RECENT_FAN_OUTS = 64;

/** The fan-out a step's reply routed to (its `fan-out/1` node), or null for a step that did not fan out. */
export async function readFanOut(objects: ObjectStore, stepAddress: Address | string): Promise<FanOutNode | null> {
  let recent = recentFanOuts.get(objects);
  if (recent === undefined) {
    recent = new Map();
    recentFanOuts.set(objects, recent);
  }
  const known = recent.get(stepAddress);
  if (known !== undefined) return known;
  const step = storedNodeAs<ThreadStepNode>("thread-step/1", stepAddress, await objects.get(stepAddress as Address));
  const fanOut =
    step.fanOut === undefined
      ? null
      : storedNodeAs<FanOutNode>("fan-out/1", step.fanOut, await objects.get(step.fanOut));
  if (recent.size >= RECENT_FAN_OUTS) recent.delete(recent.keys().next().value as string);
  recent.set(stepAddress, fanOut);
  return fanOut;
}

/** The policy as people write it: `all`, `all-settled`, `any`, `quorum:N`. */
export function describePolicy(policy: FanOutNode["join"]["policy"]): string {
  return typeof policy === "string" ? policy : `quorum:${policy.quorum}`;
}
