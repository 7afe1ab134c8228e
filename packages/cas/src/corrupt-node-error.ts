import { UwfError } from "@uwf/protocol";

/** Stored bytes whose hash no longer matches their address: never returned to the caller. */
export class CorruptNodeError extends UwfError {
  constructor(address: string, detail: string) {
    super("corrupt-node", `node ${address} is corrupt: ${detail}`, { data: { address, detail } });
    this.name = "CorruptNodeError";
  }
}
