import { UwfError } from "@uwf/protocol";

/** `uwf show --reply` on an agent run that recorded no reply (it failed before the agent answered). */
export class NoReplyError extends UwfError<"no-reply"> {
  static override readonly code = "no-reply" as const;
  static override readonly name = "NoReplyError";

  constructor(runAddress: string) {
    super(`agent run ${runAddress} recorded no reply`, { data: { address: runAddress } });
  }
}
