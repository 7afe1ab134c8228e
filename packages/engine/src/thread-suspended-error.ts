import { budgetSpent, type ThreadRecord, UwfError } from "@uwf/protocol";
import { describeReachedLimit, raiseLimitHint } from "./describe-reached-limit.ts";

/** Stepping a suspended thread: it waits for `uwf resume` (exit 20), with an answer or, when its budget suspended it, a raised limit. */
export class ThreadSuspendedError extends UwfError {
  static readonly code = "thread-suspended" as const;

  constructor(record: ThreadRecord) {
    const { id, reason, budget } = record;
    const exceeded = budget?.exceeded ?? null;
    const why = reason === null ? "" : `: ${reason}`;
    const message =
      budget === undefined || exceeded === null
        ? `thread ${id} is suspended${why} — answer with \`uwf resume ${id} -p "..."\``
        : `thread ${id} is suspended: its budget, ${describeReachedLimit(exceeded, budget[exceeded] ?? 0, budgetSpent(record))} — raise it with \`${raiseLimitHint(id, exceeded)}\``;
    super(ThreadSuspendedError.code, message, { data: { thread: id, reason } });
    this.name = "ThreadSuspendedError";
  }
}
