import type { Address } from "@uwf/protocol";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The node held by bytes whose hash already matched their address. They can still fail to
 * parse when a file was planted under its own hash; that is reported as corruption too, so a
 * caller never receives anything but a node.
 */
export function parseVerifiedNode(verified: { address: Address; bytes: Uint8Array }): unknown {
  try {
    return JSON.parse(strictUtf8.decode(verified.bytes));
  } catch {
    throw new CorruptNodeError(verified.address, "its content is not UTF-8 JSON");
  }
}
