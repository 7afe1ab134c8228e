import { UwfError } from "@uwf/protocol";

/** `uwf fork ADDRESS --from THREAD` where THREAD's chain does not hold the address. */
export class NodeNotOnThreadError extends UwfError {
  static readonly code = "node-not-on-thread" as const;

  constructor(address: string, threadId: string) {
    super(
      NodeNotOnThreadError.code,
      `node ${address} is not on thread ${threadId}'s chain, so it was not forked from it`,
      { data: { address, thread: threadId } },
    );
    this.name = "NodeNotOnThreadError";
  }
}
