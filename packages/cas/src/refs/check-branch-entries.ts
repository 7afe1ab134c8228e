import { THREAD_ID_PATTERN, type ThreadRecord } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { BranchLink, NewBranch } from "./branch-refs.ts";
import { checkRecord } from "./check-record.ts";

/** An entry of `createBranches` as it is stored: its link checked and copied, its record (null: none) as checkRecord accepts it. */
export interface CheckedBranch {
  link: BranchLink;
  record: ThreadRecord | null;
}

/**
 * The entries of a `createBranches` call checked before they touch storage: thread ids for the parent
 * and the branch, a positive step (the parent's fan-out step), a key that is not empty, an index that is
 * a non-negative integer and an ISO 8601 time; a record must be a thread record whose id is the link's
 * thread. InvalidRecordError listing a bad entry's problems.
 */
export async function checkBranchEntries(entries: readonly NewBranch[]): Promise<CheckedBranch[]> {
  if (!Array.isArray(entries)) throw new InvalidRecordError("branch link", ["expected a list of branches"]);
  return Promise.all(
    entries.map(async (entry, position) => {
      const given = (entry ?? {}) as Partial<NewBranch>;
      const link = checkBranchLink(given.link, `[${position}].link`);
      if (given.record === undefined) return { link, record: null };
      const record = await checkRecord("threadRecord", given.record);
      if (record.id !== link.thread) {
        throw new InvalidRecordError("branch link", [
          `[${position}].record.id: expected the link's thread ${link.thread}, got ${record.id}`,
        ]);
      }
      return { link, record };
    }),
  );
}

/** `step` as listBranches takes it: absent, or a positive integer. */
export function checkBranchStep(step: number | undefined): number | undefined {
  if (step !== undefined && !isPositiveInteger(step)) {
    throw new InvalidRecordError("branch query", [`step: expected a positive integer, got ${String(step)}`]);
  }
  return step;
}

function checkBranchLink(input: unknown, where: string): BranchLink {
  const link = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of ["parent", "thread"] as const) {
    const value = link[field];
    if (typeof value !== "string" || !THREAD_ID_PATTERN.test(value))
      problems.push(`${where}.${field}: expected a thread id`);
  }
  if (!isPositiveInteger(link.step)) problems.push(`${where}.step: expected a positive integer`);
  if (typeof link.key !== "string" || link.key === "") problems.push(`${where}.key: expected a non-empty string`);
  if (!Number.isSafeInteger(link.index) || (link.index as number) < 0) {
    problems.push(`${where}.index: expected a non-negative integer`);
  }
  if (typeof link.createdAt !== "string" || Number.isNaN(Date.parse(link.createdAt))) {
    problems.push(`${where}.createdAt: expected an ISO 8601 time`);
  }
  if (problems.length > 0) throw new InvalidRecordError("branch link", problems);
  return {
    parent: link.parent as string,
    step: link.step as number,
    key: link.key as string,
    index: link.index as number,
    thread: link.thread as string,
    createdAt: link.createdAt as string,
  };
}

function isPositiveInteger(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/** The order createBranches and listBranches return links in: by parent, then step, then index (then key, should indexes clash). */
export function compareBranchLinks(left: BranchLink, right: BranchLink): number {
  if (left.parent !== right.parent) return left.parent < right.parent ? -1 : 1;
  if (left.step !== right.step) return left.step - right.step;
  if (left.index !== right.index) return left.index - right.index;
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

/** The distinct (parent, step) pairs of these links, sorted by parent, then step. */
export function branchGroupsOf(links: readonly BranchLink[]): { parent: string; step: number }[] {
  const seen = new Map<string, { parent: string; step: number }>();
  for (const { parent, step } of links) seen.set(`${parent} ${step}`, { parent, step });
  return [...seen.values()].sort((left, right) =>
    left.parent !== right.parent ? (left.parent < right.parent ? -1 : 1) : left.step - right.step,
  );
}
