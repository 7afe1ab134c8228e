import { UwfError } from "@uwf/protocol";

/** `uwf show --reply` on an agent run that recorded no reply (it failed before the agent answered). */
export class NoReplyError extends UwfError {
  static readonly code = "no-reply" as const;

  constructor(runAddress: string) {
    super(NoReplyError.code, `agent run ${runAddress} recorded no reply`, { data: { address: runAddress } });
    this.name = "NoReplyError";
  }
}
