import { parseAddress } from "../encoding/parse-address.ts";
import type { ChainIndexStep, ChainRefs } from "../refs/chain-refs.ts";
import { checkChainIndex, checkChainIndexSteps } from "../refs/check-chain-index.ts";
import { decodeChainIndex } from "../refs/decode-chain-index.ts";
import { encodeChainDetails } from "../refs/encode-chain-details.ts";
import { headOfChainIndex } from "../refs/head-of-chain-index.ts";
import type { PostgresConnection } from "./postgres-connection.ts";

type ChainIndexMethods = Pick<
  ChainRefs,
  "rememberChainIndex" | "extendChainIndex" | "recallChainIndex" | "listChainIndexedThreads" | "forgetChainIndex"
>;

/**
 * The chain indexes of a PostgreSQL ref store (see `RefStore.rememberChainIndex`): one row per
 * thread, its steps one JSON array of `[address, role]` pairs, so a recall is one row and one
 * parse, and a step appends its pairs in one UPDATE that matches only while the index ends at
 * the head the caller knows. The steps' details (see `encodeChainDetails`) sit in a column of their
 * own, read only when asked for; an index from before them has NULL there, and gains entries as steps
 * append.
 */
export function createPostgresChainIndexMethods(connection: PostgresConnection, schema: string): ChainIndexMethods {
  const { query } = connection;
  const chainIndexes = `"${schema}".chain_indexes`;
  // Sent as text and cast in SQL: a client given a jsonb parameter would encode the string again.
  const pairsOf = (steps: readonly ChainIndexStep[]) => JSON.stringify(steps.map((step) => [step.address, step.role]));
  return {
    async rememberChainIndex(threadId, index) {
      const checked = checkChainIndex(index);
      await query(
        `INSERT INTO ${chainIndexes} (thread_id, start, head, steps, details)
         VALUES ($1, $2, $3, $4::text::jsonb, $5::text::jsonb)
         ON CONFLICT (thread_id) DO UPDATE SET start = excluded.start, head = excluded.head, steps = excluded.steps,
           details = excluded.details`,
        [threadId, checked.start, headOfChainIndex(checked), pairsOf(checked.steps), encodeChainDetails(checked.steps)],
      );
    },
    async extendChainIndex(threadId, head, steps) {
      const checkedHead = parseAddress(head);
      const checkedSteps = checkChainIndexSteps(steps);
      const last = checkedSteps.at(-1);
      const matched =
        last === undefined
          ? await query(`SELECT 1 FROM ${chainIndexes} WHERE thread_id = $1 AND head = $2`, [threadId, checkedHead])
          : await query(
              `UPDATE ${chainIndexes} SET head = $3, steps = steps || $4::text::jsonb,
                 details = CASE WHEN $5::text IS NULL THEN details
                   WHEN jsonb_typeof(details) = 'array' THEN details || $5::text::jsonb ELSE $5::text::jsonb END
               WHERE thread_id = $1 AND head = $2 RETURNING 1`,
              [threadId, checkedHead, last.address, pairsOf(checkedSteps), encodeChainDetails(checkedSteps)],
            );
      return matched.length === 1;
    },
    async recallChainIndex(threadId, options = {}) {
      const details = options.details === true ? ", details::text AS details" : "";
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
      await query(`DELETE FROM ${chainIndexes} WHERE thread_id = $1`, [threadId]);
    },
  };
}
