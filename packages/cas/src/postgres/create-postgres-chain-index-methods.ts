import { parseAddress } from "../encoding/parse-address.ts";
import type { ChainIndexStep, ChainRefs } from "../refs/chain-refs.ts";
import { checkChainIndex, checkChainIndexSteps } from "../refs/check-chain-index.ts";
import { decodeChainIndex } from "../refs/decode-chain-index.ts";
import { encodeChainDetails } from "../refs/encode-chain-details.ts";
import { headOfChainIndex } from "../refs/head-of-chain-index.ts";
import type { PostgresConnection, PostgresQuery } from "./postgres-connection.ts";

type ChainIndexMethods = Pick<
  ChainRefs,
  "rememberChainIndex" | "extendChainIndex" | "recallChainIndex" | "listChainIndexedThreads" | "forgetChainIndex"
>;

/**
 * The chain indexes of a PostgreSQL ref store (see `RefStore.rememberChainIndex`): one row per
 * thread, its steps one JSON array of `[address, role]` pairs, so a recall is one row and one
 * parse, and a step appends its pairs in one UPDATE that matches only while the index ends at
 * the head the caller knows. The steps' details (see `encodeChainDetails`) sit in a table of their
 * own, a row a step, so a step appends one small row whatever the thread's length, and a recall reads
 * them only when asked for, gathered into one JSON array.
 */
export function createPostgresChainIndexMethods(connection: PostgresConnection, schema: string): ChainIndexMethods {
  const { query } = connection;
  const chainIndexes = `"${schema}".chain_indexes`;
  const chainIndexDetails = `"${schema}".chain_index_details`;
  // Sent as text and cast in SQL: a client given a jsonb parameter would encode the string again.
  const pairsOf = (steps: readonly ChainIndexStep[]) => JSON.stringify(steps.map((step) => [step.address, step.role]));
  /** Keeps the steps' details, one row a step, in the caller's transaction. */
  const keepDetails = async (inTransaction: PostgresQuery, threadId: string, steps: readonly ChainIndexStep[]) => {
    const entries = encodeChainDetails(steps);
    if (entries.length === 0) return;
    await inTransaction(
      `INSERT INTO ${chainIndexDetails} (thread_id, address, entry)
       SELECT $1, entry ->> 0, entry FROM jsonb_array_elements($2::text::jsonb) AS entry
       ON CONFLICT (thread_id, address) DO UPDATE SET entry = excluded.entry`,
      [threadId, `[${entries.map(({ entry }) => entry).join(",")}]`],
    );
  };
  return {
    async rememberChainIndex(threadId, index) {
      const checked = checkChainIndex(index);
      await connection.transaction(async (inTransaction) => {
        await inTransaction(
          `INSERT INTO ${chainIndexes} (thread_id, start, head, steps) VALUES ($1, $2, $3, $4::text::jsonb)
           ON CONFLICT (thread_id) DO UPDATE SET start = excluded.start, head = excluded.head, steps = excluded.steps`,
          [threadId, checked.start, headOfChainIndex(checked), pairsOf(checked.steps)],
        );
        await inTransaction(`DELETE FROM ${chainIndexDetails} WHERE thread_id = $1`, [threadId]);
        await keepDetails(inTransaction, threadId, checked.steps);
      });
    },
    async extendChainIndex(threadId, head, steps) {
      const checkedHead = parseAddress(head);
      const checkedSteps = checkChainIndexSteps(steps);
      const last = checkedSteps.at(-1);
      if (last === undefined) {
        const matched = await query(`SELECT 1 FROM ${chainIndexes} WHERE thread_id = $1 AND head = $2`, [
          threadId,
          checkedHead,
        ]);
        return matched.length === 1;
      }
      return connection.transaction(async (inTransaction) => {
        const matched = await inTransaction(
          `UPDATE ${chainIndexes} SET head = $3, steps = steps || $4::text::jsonb
           WHERE thread_id = $1 AND head = $2 RETURNING 1`,
          [threadId, checkedHead, last.address, pairsOf(checkedSteps)],
        );
        if (matched.length !== 1) return false;
        await keepDetails(inTransaction, threadId, checkedSteps);
        return true;
      });
    },
    async recallChainIndex(threadId, options = {}) {
      const details =
        options.details === true
          ? `, (SELECT jsonb_agg(entry)::text FROM ${chainIndexDetails} WHERE thread_id = $1) AS details`
          : "";
      const [row] = await query<{ start: string; steps: string; details?: string | null }>(
        `SELECT start, steps::text AS steps${details} FROM ${chainIndexes} WHERE thread_id = $1`,
        [threadId],
      );
      return row === undefined ? null : decodeChainIndex(row.start, row.steps, row.details);
    },
    listChainIndexedThreads: async function* () {
      const rows = await query<{ thread_id: string }>(`SELECT thread_id FROM ${chainIndexes} ORDER BY thread_id`);
      for (const row of rows) yield row.thread_id;
    },
    async forgetChainIndex(threadId) {
      await connection.transaction(async (inTransaction) => {
        await inTransaction(`DELETE FROM ${chainIndexes} WHERE thread_id = $1`, [threadId]);
        await inTransaction(`DELETE FROM ${chainIndexDetails} WHERE thread_id = $1`, [threadId]);
      });
    },
  };
}
