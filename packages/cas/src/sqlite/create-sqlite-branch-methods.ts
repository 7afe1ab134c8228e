import type { Database } from "bun:sqlite";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import type { BranchLink, BranchRefs } from "../refs/branch-refs.ts";
import {
  branchGroupsOf,
  type CheckedBranch,
  checkBranchEntries,
  checkBranchStep,
} from "../refs/check-branch-entries.ts";
import { THREAD_COLUMNS, THREAD_PLACEHOLDERS, threadToRowValues } from "../refs/thread-rows.ts";

const LINK_COLUMNS = 'parent, step, key, idx AS "index", thread, created_at AS createdAt';
const LINK_ORDER = "ORDER BY parent, step, idx, key";

/**
 * The branch links of a SQLite ref store (see `RefStore.createBranches`): one row per (parent, step,
 * key). A call is one immediate transaction, so it runs under the write lock: a second process making
 * the same branches waits, then finds their links and inserts neither links nor records.
 */
export function createSqliteBranchMethods(database: Database): BranchRefs {
  const insertLink = database.query(
    `INSERT INTO branch_links (parent, step, key, idx, thread, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (parent, step, key) DO NOTHING`,
  );
  const insertThread = database.query(
    `INSERT INTO threads (${THREAD_COLUMNS}) VALUES (${THREAD_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING`,
  );
  const selectStep = database.query<BranchLink, [string, number]>(
    `SELECT ${LINK_COLUMNS} FROM branch_links WHERE parent = ? AND step = ? ${LINK_ORDER}`,
  );
  // A record whose id exists rolls the whole call back, links included.
  const insertBranches = database.transaction((branches: readonly CheckedBranch[]): BranchLink[] => {
    for (const { link, record } of branches) {
      const inserted = insertLink.run(link.parent, link.step, link.key, link.index, link.thread, link.createdAt);
      if (inserted.changes === 0 || record === null) continue;
      if (insertThread.run(...threadToRowValues(record)).changes === 0) throw new ThreadExistsError(record.id);
    }
    return branchGroupsOf(branches.map((branch) => branch.link)).flatMap(({ parent, step }) =>
      selectStep.all(parent, step),
    );
  });
  return {
    async createBranches(entries) {
      const checked = await checkBranchEntries(entries);
      return insertBranches.immediate(checked);
    },
    async listBranches(parent, step) {
      const checkedStep = checkBranchStep(step);
      return checkedStep === undefined
        ? database
            .query<BranchLink, [string]>(`SELECT ${LINK_COLUMNS} FROM branch_links WHERE parent = ? ${LINK_ORDER}`)
            .all(parent)
        : selectStep.all(parent, checkedStep);
    },
    listAllBranches: async function* () {
      // Read fully before yielding, so no read transaction stays open while the caller works.
      yield* database.query<BranchLink, []>(`SELECT ${LINK_COLUMNS} FROM branch_links ${LINK_ORDER}`).all();
    },
  };
}
