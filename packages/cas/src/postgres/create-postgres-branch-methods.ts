import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import type { BranchLink, BranchRefs } from "../refs/branch-refs.ts";
import { branchGroupsOf, checkBranchEntries, checkBranchStep } from "../refs/check-branch-entries.ts";
import { THREAD_COLUMNS, THREAD_NUMBERED_PLACEHOLDERS, threadToRowValues } from "../refs/thread-rows.ts";
import type { PostgresConnection } from "./postgres-connection.ts";

const LINK_COLUMNS = 'parent, step, key, idx AS "index", thread, created_at AS "createdAt"';
const LINK_ORDER = "ORDER BY parent, step, idx, key";

/**
 * The branch links of a PostgreSQL ref store (see `RefStore.createBranches`): one row per (parent, step,
 * key). A call is one transaction; a second process inserting the same key waits on the first's
 * uncommitted row and, once it commits, inserts nothing (ON CONFLICT DO NOTHING), so it inserts no
 * record either. The links it returns are read after its inserts, in a snapshot that sees the winners'.
 */
export function createPostgresBranchMethods(connection: PostgresConnection, schema: string): BranchRefs {
  const links = `"${schema}".branch_links`;
  const threads = `"${schema}".threads`;
  return {
    async createBranches(entries) {
      const checked = await checkBranchEntries(entries);
      if (checked.length === 0) return [];
      // Inserted in one order whoever calls, by (parent, step, key): two calls that insert the same keys in
      // other orders would otherwise each wait on a key the other holds (a deadlock PostgreSQL breaks by
      // failing one). The sort is stable, so of one key named twice the first entry is still the one made.
      const ordered = checked.toSorted((left, right) => compareKeys(left.link, right.link));
      return connection.transaction(async (query) => {
        for (const { link, record } of ordered) {
          const inserted = await query(
            `INSERT INTO ${links} (parent, step, key, idx, thread, created_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (parent, step, key) DO NOTHING RETURNING 1`,
            [link.parent, link.step, link.key, link.index, link.thread, link.createdAt],
          );
          if (inserted.length === 0 || record === null) continue;
          const created = await query(
            `INSERT INTO ${threads} (${THREAD_COLUMNS}) VALUES (${THREAD_NUMBERED_PLACEHOLDERS})
             ON CONFLICT (id) DO NOTHING RETURNING 1`,
            threadToRowValues(record),
          );
          // Thrown inside the transaction: every link and record of the call is rolled back.
          if (created.length === 0) throw new ThreadExistsError(record.id);
        }
        const stored: BranchLink[] = [];
        for (const { parent, step } of branchGroupsOf(checked.map((branch) => branch.link))) {
          stored.push(
            ...(await query<BranchLink>(
              `SELECT ${LINK_COLUMNS} FROM ${links} WHERE parent = $1 AND step = $2 ${LINK_ORDER}`,
              [parent, step],
            )),
          );
        }
        return stored.map(copyLink);
      });
    },
    async listBranches(parent, step) {
      const checkedStep = checkBranchStep(step);
      const rows =
        checkedStep === undefined
          ? await connection.query<BranchLink>(`SELECT ${LINK_COLUMNS} FROM ${links} WHERE parent = $1 ${LINK_ORDER}`, [
              parent,
            ])
          : await connection.query<BranchLink>(
              `SELECT ${LINK_COLUMNS} FROM ${links} WHERE parent = $1 AND step = $2 ${LINK_ORDER}`,
              [parent, checkedStep],
            );
      return rows.map(copyLink);
    },
    listAllBranches: async function* () {
      const rows = await connection.query<BranchLink>(`SELECT ${LINK_COLUMNS} FROM ${links} ${LINK_ORDER}`);
      yield* rows.map(copyLink);
    },
  };
}

function compareKeys(left: BranchLink, right: BranchLink): number {
  if (left.parent !== right.parent) return left.parent < right.parent ? -1 : 1;
  if (left.step !== right.step) return left.step - right.step;
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

/** A plain object with the link's fields (a driver's row may carry more, or be of a class of its own). */
function copyLink(row: BranchLink): BranchLink {
  return {
    parent: row.parent,
    step: Number(row.step),
    key: row.key,
    index: Number(row.index),
    thread: row.thread,
    createdAt: row.createdAt,
  };
}
