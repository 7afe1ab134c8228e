import { UwfError } from "@uwf/protocol";

/** Stored bytes whose hash no longer matches their address: never returned to the caller. */
export class CorruptNodeError extends UwfError {
  static readonly code = "corrupt-node" as const;

  constructor(address: string, detail: string) {
    super(CorruptNodeError.code, `node ${address} is corrupt: ${detail}`, { data: { address, detail } });
    this.name = "CorruptNodeError";
  }
}
