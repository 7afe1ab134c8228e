import { UwfError } from "@uwf/protocol";

/** A node in a thread's chain (or named as a thread's head) that is neither a thread start nor a step. */
export class NotAThreadNodeError extends UwfError {
  static readonly code = "not-a-thread-node" as const;

  constructor(address: string, kind: string | null) {
    super(NotAThreadNodeError.code, `node ${address} is a ${String(kind)} node, not a thread start or step`, {
      data: { address, kind: String(kind) },
    });
    this.name = "NotAThreadNodeError";
  }
}
