import type { Address } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { LeaseAgent } from "../refs/lease-refs.ts";

/** An agent recorded in a lease: a positive whole process group id, and a start that is a string or null. */
export function checkLeaseAgent(agent: LeaseAgent | null): LeaseAgent | null {
  if (agent === null) return null;
  if (typeof agent !== "object" || !Number.isSafeInteger(agent.group) || agent.group <= 0) {
    throw new InvalidRecordError("lease agent", ["group: expected a positive integer"]);
  }
  if (agent.start !== null && typeof agent.start !== "string") {
    throw new InvalidRecordError("lease agent", ["start: expected a string or null"]);
  }
  return { group: agent.group, start: agent.start };
}

/** A head recorded in a lease (RefStore.recordLeaseHead): a well-formed address, upper case. */
export function checkLeaseHead(head: Address): Address {
  try {
    return parseAddress(head);
  } catch {
    throw new InvalidRecordError("lease head", [`intendedHead: expected an address, got ${JSON.stringify(head)}`]);
  }
}
