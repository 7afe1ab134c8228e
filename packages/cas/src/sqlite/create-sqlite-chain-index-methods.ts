import type { Database } from "bun:sqlite";
import type { Address } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import type { ChainIndex, ChainIndexStep, ChainRefs } from "../refs/chain-refs.ts";
import { checkChainIndex, checkChainIndexSteps } from "../refs/check-chain-index.ts";
import { decodeChainIndex } from "../refs/decode-chain-index.ts";
import { encodeChainDetails } from "../refs/encode-chain-details.ts";
import { headOfChainIndex } from "../refs/head-of-chain-index.ts";

type ChainIndexMethods = Pick<
  ChainRefs,
  "rememberChainIndex" | "extendChainIndex" | "recallChainIndex" | "listChainIndexedThreads" | "forgetChainIndex"
>;

const NOT_AT_HEAD = new Error("the chain index does not end at the given head");

/**
 * The chain indexes of a SQLite ref store (see `RefStore.rememberChainIndex`): one row per thread,
 * its steps as one JSON array of `[address, role]` pairs, so a recall is one row and one parse, and a
 * step appends its pair in SQL instead of writing the list out again. The steps' details (see
 * `encodeChainDetails`) sit in a table of their own, a row a step, so a step appends one small row
 * whatever the thread's length, and a recall reads them only when asked for (SQLite joins them into
 * one JSON array, leaving out an entry that is not JSON).
 */
export function createSqliteChainIndexMethods(database: Database): ChainIndexMethods {
  const upsert = () =>
    database.query<unknown, [string, string, string, string]>(
      `INSERT INTO chain_indexes (thread_id, start, head, steps) VALUES (?, ?, ?, ?)
       ON CONFLICT (thread_id) DO UPDATE SET start = excluded.start, head = excluded.head, steps = excluded.steps`,
    );
  const append = () =>
    database.query<unknown, [string, string, string, string]>(
      `UPDATE chain_indexes SET head = ?1, steps = json_insert(steps, '$[#]', json_array(?1, ?2))
       WHERE thread_id = ?3 AND head = ?4 AND json_valid(steps)`,
    );
  const forgetDetails = () => database.query<unknown, [string]>("DELETE FROM chain_index_details WHERE thread_id = ?");
  const keepDetails = () =>
    database.query<unknown, [string, string, string]>(
      "INSERT OR REPLACE INTO chain_index_details (thread_id, address, entry) VALUES (?, ?, ?)",
    );
  const select = () =>
    database.query<{ start: string; steps: string }, [string]>(
      "SELECT start, steps FROM chain_indexes WHERE thread_id = ?",
    );
  const selectWithDetails = () =>
    database.query<{ start: string; steps: string; details: string | null }, [string]>(
      `SELECT start, steps, '[' || (SELECT group_concat(entry, ',') FROM chain_index_details
         WHERE chain_index_details.thread_id = chain_indexes.thread_id AND json_valid(entry)) || ']' AS details
       FROM chain_indexes WHERE thread_id = ?`,
    );
  const endsAt = () =>
    database.query<unknown, [string, string]>("SELECT 1 FROM chain_indexes WHERE thread_id = ? AND head = ?");
  const remember = database.transaction((threadId: string, index: ChainIndex) => {
    const steps = JSON.stringify(index.steps.map((step) => [step.address, step.role]));
    upsert().run(threadId, index.start, headOfChainIndex(index), steps);
    forgetDetails().run(threadId);
    for (const { address, entry } of encodeChainDetails(index.steps)) keepDetails().run(threadId, address, entry);
  });
  // All or nothing: a step that does not follow on throws, which rolls back the ones before it.
  const extend = database.transaction((threadId: string, head: Address, steps: readonly ChainIndexStep[]) => {
    if (steps.length === 0 && endsAt().get(threadId, head) === null) throw NOT_AT_HEAD;
    let from = head;
    for (const step of steps) {
      if (append().run(step.address, step.role, threadId, from).changes !== 1) throw NOT_AT_HEAD;
      from = step.address;
    }
    for (const { address, entry } of encodeChainDetails(steps)) keepDetails().run(threadId, address, entry);
  });
  const forget = database.transaction((threadId: string) => {
    database.query("DELETE FROM chain_indexes WHERE thread_id = ?").run(threadId);
    forgetDetails().run(threadId);
  });
  return {
    async rememberChainIndex(threadId, index) {
      remember(threadId, checkChainIndex(index));
    },
    async extendChainIndex(threadId, head, steps) {
      const checkedHead = parseAddress(head);
      const checkedSteps = checkChainIndexSteps(steps);
      try {
        extend(threadId, checkedHead, checkedSteps);
        return true;
      } catch (error) {
        if (error === NOT_AT_HEAD) return false;
        throw error;
      }
    },
    async recallChainIndex(threadId, options = {}) {
      if (options.details === true) {
        const row = selectWithDetails().get(threadId);
        return row === null ? null : decodeChainIndex(row.start, row.steps, row.details);
      }
      const row = select().get(threadId);
      return row === null ? null : decodeChainIndex(row.start, row.steps);
    },
    listChainIndexedThreads: async function* () {
      // Read fully before yielding, so no read transaction stays open while the caller works.
      const rows = database
        .query<{ threadId: string }, []>("SELECT thread_id AS threadId FROM chain_indexes ORDER BY thread_id")
        .all();
      for (const { threadId } of rows) yield threadId;
    },
    async forgetChainIndex(threadId) {
      forget(threadId);
    },
  };
}
