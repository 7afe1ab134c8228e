import { UwfError } from "@uwf/protocol";

/** `uwf ui` cannot listen on the address and port it was given: in use, not this machine's, or not allowed. */
export class ListenFailedError extends UwfError<"listen-failed"> {
  static override readonly code = "listen-failed" as const;
  static override readonly name = "ListenFailedError";

  constructor(host: string, port: number, reason: string, cause?: unknown) {
    super(`cannot listen on ${host}:${port}: ${reason}`, { data: { host, port, reason }, cause });
  }
}
