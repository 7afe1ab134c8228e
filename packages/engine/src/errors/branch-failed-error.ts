import { type ThreadRecord, UwfError } from "@uwf/protocol";

/**
 * A parent whose join can no longer be met (DESIGN §4): under `all` a branch failed or was cancelled,
 * under `any` or `quorum` too few branches can still end. The parent is `failed`; resuming or retrying
 * the branch (`uwf resume BRANCH`) and stepping the parent again joins it.
 */
export class BranchFailedError extends UwfError<"branch-failed"> {
  static override readonly code = "branch-failed" as const;
  static override readonly name = "BranchFailedError";

  constructor(
    record: ThreadRecord,
    branch: { key: string; thread: string; status: ThreadRecord["status"] | null } | null,
  ) {
    const why = record.failure?.message ?? "its join's policy can no longer hold";
    super(`thread ${record.id} failed: ${why}`, {
      data: {
        thread: record.id,
        branch: branch?.key ?? null,
        branchThread: branch?.thread ?? null,
        status: branch?.status ?? null,
      },
    });
  }
}
