import { budgetSpent, type ThreadRecord, UwfError } from "@uwf/protocol";
import { describeReachedLimit } from "../budget/describe-reached-limit.ts";

/**
 * Stepping a suspended thread: it waits for a resume, with an answer or, when its budget suspended it
 * (`data.limit` names the limit it reached), a raised limit. `answer` says which answer its role takes
 * (`text` for `-p`, `fields` for `--answer`) when whoever threw it read the suspension, else null.
 */
export class ThreadSuspendedError extends UwfError<"thread-suspended"> {
  static override readonly code = "thread-suspended" as const;
  static override readonly name = "ThreadSuspendedError";

  constructor(record: ThreadRecord, answer: "text" | "fields" | null = null) {
    const { id, reason, budget } = record;
    const exceeded = budget?.exceeded ?? null;
    const why = reason === null ? "" : `: ${reason}`;
    const message =
      budget === undefined || exceeded === null
        ? `thread ${id} is suspended${why}`
        : `thread ${id} is suspended: its budget, ${describeReachedLimit(exceeded, budget[exceeded] ?? 0, budgetSpent(record))}`;
    super(message, { data: { thread: id, reason, limit: exceeded, answer } });
  }
}
