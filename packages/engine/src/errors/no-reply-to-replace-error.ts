import { UwfError } from "@uwf/protocol";

/**
 * A fork with a replacement reply from a thread start node: only a step has a reply to replace.
 * Nothing was written. Its code is `usage`: the request itself is wrong.
 */
export class NoReplyToReplaceError extends UwfError<"usage"> {
  static override readonly code = "usage" as const;
  static override readonly name = "NoReplyToReplaceError";

  constructor(address: string) {
    super(`node ${address} is a thread start node, which has no reply to replace`, {
      data: { address },
    });
  }
}
