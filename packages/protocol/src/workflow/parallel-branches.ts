import type { BranchTarget, FanOut } from "./fan-out.ts";

/** A fan-out's named branches in declaration order (`keys`), else in the map's own order. */
export function parallelBranches(fanOut: FanOut): [string, BranchTarget][] {
  const parallel = fanOut.parallel ?? {};
  const keys = (fanOut.keys ?? Object.keys(parallel)).filter((key) => parallel[key] !== undefined);
  return keys.map((key) => [key, parallel[key] as BranchTarget]);
}
