let monotonicId: (() => string) | undefined;

/**
 * A new thread id: a ULID from one monotonic factory per process, so the threads one command makes
 * (`fork --count`, a fan-out's branches) sort in the order they were made even within a millisecond,
 * as a family's forks are listed. Made on first use: ulid loads node:crypto (and Node's streams) when
 * imported, which every step would pay for, though few commands make ids (issue 43).
 */
export function newThreadId(): string {
  monotonicId ??= (require("ulid") as typeof import("ulid")).monotonicFactory();
  return monotonicId();
}
