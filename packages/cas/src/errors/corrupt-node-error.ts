import { UwfError } from "@uwf/protocol";

/** Stored bytes whose hash no longer matches their address: never returned to the caller. */
export class CorruptNodeError extends UwfError<"corrupt-node"> {
  static override readonly code = "corrupt-node" as const;
  static override readonly name = "CorruptNodeError";

  constructor(address: string, detail: string) {
    super(`node ${address} is corrupt: ${detail}`, { data: { address, detail } });
  }
}
