import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { AcquireLeaseOptions, ClaimThreadOptions } from "../refs/lease-refs.ts";

/** A lease request every ref store backend refuses before touching its leases. */
export function checkLeaseOptions(options: AcquireLeaseOptions | ClaimThreadOptions): void {
  checkTtl(options.ttlMs);
  if (!Number.isInteger(options.pid)) throw new InvalidRecordError("lease request", ["pid: expected an integer"]);
  checkTime(options.now);
  const { processStart } = options;
  const takeOver = "takeOver" in options ? options.takeOver : undefined;
  if (processStart !== undefined && processStart !== null && typeof processStart !== "string") {
    throw new InvalidRecordError("lease request", ["processStart: expected a string or null"]);
  }
  if (takeOver !== undefined && typeof takeOver !== "string") {
    throw new InvalidRecordError("lease request", ["takeOver: expected a lease token"]);
  }
}

/** A lease's time to live, as taken or renewed: a positive whole number of milliseconds. */
export function checkTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new InvalidRecordError("lease request", [`ttlMs: expected a positive integer, got ${ttlMs}`]);
  }
}

/** A claim, checked as a lease request plus its filter. */
export function checkClaimOptions(options: ClaimThreadOptions): void {
  checkLeaseOptions(options);
  if (options.workflow !== undefined && (typeof options.workflow !== "string" || options.workflow === "")) {
    throw new InvalidRecordError("claim request", ["workflow: expected a workflow name"]);
  }
}

/** The time a lease operation happens at, in epoch milliseconds; an invalid date is refused. */
export function checkTime(now: Date): number {
  const time = now.getTime();
  if (Number.isNaN(time)) throw new InvalidRecordError("lease request", ["now: invalid date"]);
  return time;
}
