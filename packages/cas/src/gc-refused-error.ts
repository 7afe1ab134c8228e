import { UwfError } from "@uwf/protocol";

/**
 * gc found the nodes of threads no record names among what it would delete: thread start nodes, or,
 * when the ref store records no thread at all, start and step nodes. Those are threads the ref store
 * lost (emptied, deleted, replaced by an older copy), and `uwf cas recover` can rebuild them from
 * those very nodes; so gc deletes nothing.
 */
export class GcRefusedError extends UwfError {
  static readonly code = "gc-refused" as const;

  constructor(startNodes: number, stepNodes: number, recordsThreads: boolean) {
    const why = recordsThreads
      ? `${startNodes} thread start node(s) that no thread record reaches would be deleted: the ref store (refs.db) lost their threads, or a \`uwf start\` died before recording one`
      : `the ref store records no thread, yet ${startNodes} thread-start and ${stepNodes} thread-step node(s) would be deleted, so the ref store (refs.db) looks lost or replaced`;
    super(
      GcRefusedError.code,
      `gc refused to delete anything: ${why}. \`uwf cas recover\` rebuilds their threads from the object store`,
      { data: { startNodes, stepNodes, recordsThreads } },
    );
    this.name = "GcRefusedError";
  }
}
