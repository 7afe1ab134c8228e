import type { ThreadRecord } from "@uwf/protocol";

/**
 * A branch's place under its parent (DESIGN §4, fan-out): the parent thread, the number of its step that
 * fanned out, the branch's key and its position among that step's branches, and the branch's thread. A
 * parent's fork shares the links of branches it did not replace, so a thread may be linked under more
 * than one parent; its record's `branchOf` names the parent it was made for.
 */
export interface BranchLink {
  parent: string;
  step: number;
  key: string;
  index: number;
  thread: string;
  /** ISO 8601. */
  createdAt: string;
}

/** A link to make, with the branch's new thread record; without a record the link names a thread that exists. */
export interface NewBranch {
  link: BranchLink;
  record?: ThreadRecord;
}

/** Branch links: a fan-out's branches under their parent's step. */
export interface BranchRefs {
  /**
   * Links branches to their parent's step, in one transaction: each link whose (parent, step, key) is not
   * stored yet is inserted, with its record when it has one; a link already stored is kept as it is and
   * its record is not inserted. So a fan-out's branches are made once however many processes make them,
   * and a crash leaves all of a call's links or none. Returns the stored links of every (parent, step)
   * the entries name, as listBranches does. ThreadExistsError (nothing changed) when a new link's record
   * has an id that exists.
   */
  createBranches(entries: readonly NewBranch[]): Promise<BranchLink[]>;
  /** The links under a parent: of its step `step`, or of every step; by step, then index. */
  listBranches(parent: string, step?: number): Promise<BranchLink[]>;
  /** Every branch link, by parent, then step, then index: what `uwf store copy` copies them with. */
  listAllBranches(): AsyncIterable<BranchLink>;
}
