import { UwfError } from "@uwf/protocol";

/** A node in a thread's chain (or named as a thread's head) that is neither a thread start nor a step. */
export class NotAThreadNodeError extends UwfError<"not-a-thread-node"> {
  static override readonly code = "not-a-thread-node" as const;
  static override readonly name = "NotAThreadNodeError";

  constructor(address: string, kind: string | null) {
    super(`node ${address} is a ${String(kind)} node, not a thread start or step`, {
      data: { address, kind: String(kind) },
    });
  }
}
