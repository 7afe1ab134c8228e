import type { Store } from "@uwf/cas";
import { type CancelThreadOptions, type CancelThreadResult, cancelThread } from "../lease/cancel-thread.ts";
import { cancelBranches } from "./cancel-branches.ts";
import { settleParent } from "./settle-parent.ts";

export interface CancelWithBranchesOptions extends CancelThreadOptions {
  store: Store;
  home: string;
}

/**
 * `uwf cancel`: cancelThread, then what it means for branches (DESIGN §4). A parent's branches that have
 * not finished are cancelled with it (unless its fan-out says `onCancel: abandon`); a cancelled branch
 * settles its parent, whose join may now be due or no longer possible. `branches` lists those cancelled.
 */
export async function cancelWithBranches(
  options: CancelWithBranchesOptions,
): Promise<CancelThreadResult & { branches: string[] }> {
  const result = await cancelThread(options);
  if (result.record.status !== "cancelled") return { ...result, branches: [] };
  const branches = await cancelBranches(options, result.record);
  const parent = result.record.branchOf?.thread;
  if (parent !== undefined) await settleParent(parent, options);
  return { ...result, branches };
}
