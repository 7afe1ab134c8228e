import { UwfError } from "@uwf/protocol";

/** `uwf fork ADDRESS --from THREAD` where THREAD's chain does not hold the address. */
export class NodeNotOnThreadError extends UwfError<"node-not-on-thread"> {
  static override readonly code = "node-not-on-thread" as const;
  static override readonly name = "NodeNotOnThreadError";

  constructor(address: string, threadId: string) {
    super(`node ${address} is not on thread ${threadId}'s chain, so it was not forked from it`, {
      data: { address, thread: threadId },
    });
  }
}
