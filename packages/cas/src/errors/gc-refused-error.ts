import { type ErrorDataByCode, UwfError } from "@uwf/protocol";

/**
 * gc found, among what it would delete, the nodes of threads no record names: thread start nodes, or,
 * when the ref store records no thread at all, start and step nodes (lostThreads); or the heads of steps
 * no record holds (unrecordedHeads). Those are threads, or a thread's newer steps, that the ref store
 * lost (emptied, deleted, replaced by an older copy), and `uwf cas recover` can rebuild them from those
 * very nodes; so gc deletes nothing, unless told to with `--force`.
 */
export class GcRefusedError extends UwfError<"gc-refused"> {
  static override readonly code = "gc-refused" as const;
  static override readonly name = "GcRefusedError";

  static lostThreads(startNodes: number, stepNodes: number, recordsThreads: boolean): GcRefusedError {
    const why = recordsThreads
      ? `${startNodes} thread start node(s) that no thread record reaches would be deleted: the ref store (refs.db) lost their threads, or a \`uwf start\` died before recording one`
      : `the ref store records no thread, yet ${startNodes} thread-start and ${stepNodes} thread-step node(s) would be deleted, so the ref store (refs.db) looks lost or replaced`;
    return new GcRefusedError(
      `gc refused to delete anything: ${why}. \`uwf cas recover\` rebuilds their threads from the object store`,
      { startNodes, stepNodes, recordsThreads },
    );
  }

  /** Heads of steps no record holds (the engine's findUnrecordedHeads), `steps` of them unrecorded in all. */
  static unrecordedHeads(heads: number, steps: number): GcRefusedError {
    return new GcRefusedError(
      `gc refused to delete anything: ${heads} thread head(s) that no thread record holds would be deleted, with ${steps} step(s) no record holds: the ref store (refs.db, or the PostgreSQL tables) is older than the object store, or lost their threads. \`uwf cas recover\` records them again; \`uwf cas gc --force\` deletes them`,
      { heads, steps },
    );
  }

  private constructor(message: string, data: ErrorDataByCode["gc-refused"]) {
    super(message, { data });
  }
}
