import type { Database } from "bun:sqlite";
import { checkStepOutputQuery } from "../refs/check-step-output.ts";
import type { StepOutputChunk, StepOutputLog } from "../refs/step-output-log.ts";

/** The live output of steps in a SQLite ref store: one row a chunk, keyed by thread, step and seq. */
export function createSqliteStepOutputMethods(database: Database): StepOutputLog {
  const insert = database.query(
    "INSERT INTO step_output (thread, step, seq, stream, text, at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const append = database.transaction((threadId: string, chunks: readonly StepOutputChunk[]) => {
    for (const chunk of chunks) insert.run(threadId, chunk.step, chunk.seq, chunk.stream, chunk.text, chunk.at);
  });
  return {
    async appendStepOutput(threadId, chunks) {
      if (chunks.length > 0) append.immediate(threadId, chunks);
    },
    async readStepOutput(threadId, input = {}) {
      const query = checkStepOutputQuery(input);
      const conditions = ["thread = ?"];
      const values: (string | number)[] = [threadId];
      if (query.step !== undefined) {
        conditions.push("step = ?");
        values.push(query.step);
      }
      if (query.after !== undefined) {
        conditions.push("(step > ? OR (step = ? AND seq > ?))");
        values.push(query.after.step, query.after.step, query.after.seq);
      }
      return database
        .query<StepOutputChunk, (string | number)[]>(
          `SELECT step, seq, stream, text, at FROM step_output WHERE ${conditions.join(" AND ")}
           ORDER BY step, seq LIMIT ?`,
        )
        .all(...values, query.limit);
    },
  };
}
