import type { RefStore } from "@uwf/cas";
import { isUwfError, messageOf, type ThreadFailure, type ThreadRecord, type UwfErrorJson } from "@uwf/protocol";
import { asEnvironmentError } from "../errors/environment-error.ts";
import type { HeldLease } from "../lease/with-thread-lease.ts";

/** The longest failure message kept in a thread record or put in an event: past it, the message is cut. */
const MAX_FAILURE_MESSAGE_LENGTH = 2000;

/**
 * A step's failure as data: its error code (a machine's refusal as its own code; `internal` for an
 * error uwf did not raise on purpose), its message cut to a readable length, and its data.
 */
export function describeFailure(error: unknown): UwfErrorJson {
  const failure = asEnvironmentError(error) ?? error;
  const body = isUwfError(failure)
    ? failure.toJSON()
    : { code: "internal" as const, message: messageOf(failure), data: {} };
  const cut = body.message.length > MAX_FAILURE_MESSAGE_LENGTH;
  return { ...body, message: cut ? `${body.message.slice(0, MAX_FAILURE_MESSAGE_LENGTH)}…` : body.message };
}

/**
 * Sets a thread `failed`, with what its last attempt failed with, where its head stands: the caller
 * (a worker, or a step run from the command line) holds its lease, so nothing else moves it. Null when the thread is no longer active, or the
 * lease was lost meanwhile (another worker may hold the thread now).
 */
export async function failThread(
  refs: RefStore,
  threadId: string,
  lease: HeldLease,
  failure: ThreadFailure,
): Promise<ThreadRecord | null> {
  const record = await refs.getThread(threadId);
  if (record === null || record.status !== "active") return null;
  lease.assertHeld();
  const update = { status: "failed", failure, updatedAt: failure.failedAt } as const;
  if (!(await refs.updateThread(record.id, record.head, update))) return null;
  return { ...record, ...update };
}
