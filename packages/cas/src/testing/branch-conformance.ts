import { describe, expect, it } from "bun:test";
import type { ThreadRecord } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import type { BranchLink, NewBranch } from "../refs/branch-refs.ts";
import type { RefStore } from "../refs/ref-store.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { SAMPLE_FAN_OUT, sampleBranchRecord, sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

const OTHER_STEP = "191B06QRP5RG9";
const PARENT = sampleThreadId(1);
const CREATED_AT = "2026-03-04T05:06:07.000Z";

/** The link of branch `key` (at `index`) of PARENT's step `step`, to thread `n`. */
function linkOf(key: string, index: number, n: number, step = 3, parent = PARENT): BranchLink {
  return { parent, step, key, index, thread: sampleThreadId(n), createdAt: CREATED_AT };
}

/** A link to make with its new record. */
function newBranch(key: string, index: number, n: number, step = 3): NewBranch {
  const link = linkOf(key, index, n, step);
  return { link, record: sampleBranchRecord(link) };
}

async function idsOf(refs: RefStore): Promise<string[]> {
  return (await refs.listThreads({})).threads.map((thread) => thread.id).sort();
}

/** Branches (DESIGN §4, fan-out): the lineage on the record, the waiting status, and the links under a parent's step. */
export function describeBranchConformance(current: CurrentStore): void {
  describe("branches", () => {
    it("keeps a branch's lineage and an outcome without an edge, absent from other records", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: PARENT, status: "waiting", next: "synthesizer" }));
      const branch = sampleBranchRecord(linkOf("security", 0, 2));
      await refs.createThread(branch);
      const workflowBranch = sampleBranchRecord(linkOf("7", 7, 3), {
        branchOf: { thread: PARENT, step: 3, branch: "7", address: SAMPLE_FAN_OUT, role: null },
      });
      await refs.createThreads([workflowBranch]);
      expect(await refs.getThread(branch.id)).toEqual(branch);
      expect(await refs.getThread(workflowBranch.id)).toEqual(workflowBranch);
      expect(await refs.getThread(PARENT)).not.toHaveProperty("branchOf");
      expect((await refs.listThreads({})).threads.map((thread) => thread.branchOf?.branch)).toEqual([
        "7",
        "security",
        undefined,
      ]);
      const outcome = { role: "reviewer", status: "approved", edge: null };
      expect(await refs.updateThread(branch.id, SAMPLE_FAN_OUT, { status: "ended", head: OTHER_STEP, outcome })).toBe(
        true,
      );
      expect(await refs.getThread(branch.id)).toEqual({ ...branch, status: "ended", head: OTHER_STEP, outcome });
      expect((await refs.listThreads({ outcome: "approved" })).threads.map((thread) => thread.id)).toEqual([branch.id]);
      const origin = branch.branchOf as NonNullable<ThreadRecord["branchOf"]>;
      for (const bad of [
        { ...origin, step: 0 },
        { ...origin, branch: "" },
        { ...origin, address: "../x" },
        { ...origin, role: undefined },
        { ...origin, extra: 1 },
      ]) {
        await expect(
          refs.createThread(sampleThreadRecord({ id: sampleThreadId(9), branchOf: bad as ThreadRecord["branchOf"] })),
        ).rejects.toThrow(InvalidRecordError);
      }
      expect(await refs.getThread(sampleThreadId(9))).toBeNull();
    });

    it("lists waiting threads by status, and never gives one to a worker", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: PARENT, status: "waiting", queued: true }));
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2), queued: true }));
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(3), status: "waiting" }));
      const waiting = await refs.listThreads({ status: "waiting" });
      expect(waiting.threads.map((thread) => thread.id)).toEqual([sampleThreadId(3), PARENT]);
      expect(waiting.total).toBe(2);
      expect((await refs.listThreads({ status: "active" })).total).toBe(1);
      const claim = { ttlMs: 30_000, pid: 100, host: "box", now: new Date(Date.UTC(2026, 0, 1)) };
      expect((await refs.claimThread(claim))?.thread.id).toBe(sampleThreadId(2));
      expect(await refs.claimThread(claim)).toBeNull();
      expect(await refs.updateThread(PARENT, sampleThreadRecord().head, { status: "active" })).toBe(true);
      expect((await refs.claimThread(claim))?.thread.id).toBe(PARENT);
    });

    it("makes a fan-out's branches once: the same keys again keep the first links, without the second records", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: PARENT, status: "waiting" }));
      const first = [newBranch("security", 0, 2), newBranch("speed", 1, 3)];
      expect(await refs.createBranches(first)).toEqual(first.map((entry) => entry.link));
      expect(await refs.getThread(sampleThreadId(2))).toEqual(first[0]?.record as ThreadRecord);
      const second = [newBranch("speed", 1, 5), newBranch("security", 0, 4)];
      expect(await refs.createBranches(second)).toEqual(first.map((entry) => entry.link));
      expect(await refs.getThread(sampleThreadId(4))).toBeNull();
      expect(await refs.getThread(sampleThreadId(5))).toBeNull();
      expect(await refs.listBranches(PARENT)).toEqual(first.map((entry) => entry.link));
      expect(await idsOf(refs)).toEqual([1, 2, 3].map((n) => sampleThreadId(n)));
      expect(await refs.createBranches([])).toEqual([]);
    });

    it("adds the keys a call names that are missing, with their records only", async () => {
      const { refs } = current();
      await refs.createBranches([newBranch("a", 0, 2), newBranch("b", 1, 3)]);
      const stored = await refs.createBranches([newBranch("c", 2, 6), newBranch("b", 1, 5)]);
      expect(stored).toEqual([linkOf("a", 0, 2), linkOf("b", 1, 3), linkOf("c", 2, 6)]);
      expect(await refs.getThread(sampleThreadId(5))).toBeNull();
      expect((await refs.getThread(sampleThreadId(6)))?.branchOf?.branch).toBe("c");
      // The same key twice in one call: the first is made, the second is already there.
      expect(await refs.createBranches([newBranch("d", 3, 7), newBranch("d", 3, 8)])).toHaveLength(4);
      expect(await idsOf(refs)).toEqual([2, 3, 6, 7].map((n) => sampleThreadId(n)));
    });

    it("links threads that exist without a record, as a parent's fork shares its siblings", async () => {
      const { refs } = current();
      await refs.createBranches([newBranch("a", 0, 2), newBranch("b", 1, 3)]);
      const fork = sampleThreadId(10);
      const shared = [
        { link: { ...linkOf("a", 0, 2), parent: fork } },
        { link: { ...linkOf("b", 1, 11), parent: fork }, record: sampleBranchRecord(linkOf("b", 1, 11, 3, fork)) },
      ];
      expect(await refs.createBranches(shared)).toEqual(shared.map((entry) => entry.link));
      expect(await refs.listBranches(fork)).toEqual(shared.map((entry) => entry.link));
      expect(await refs.listBranches(PARENT)).toEqual([linkOf("a", 0, 2), linkOf("b", 1, 3)]);
      expect(await idsOf(refs)).toEqual([2, 3, 11].map((n) => sampleThreadId(n)));
    });

    it("changes nothing when a new link's record has an id that exists", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(4) }));
      await refs.createBranches([newBranch("a", 0, 2)]);
      const clashing = [newBranch("b", 1, 3), newBranch("c", 2, 4)];
      await expect(refs.createBranches(clashing)).rejects.toThrow(ThreadExistsError);
      const twice = [newBranch("b", 1, 3), { ...newBranch("c", 2, 3), link: linkOf("c", 2, 3) }];
      await expect(refs.createBranches(twice)).rejects.toThrow(ThreadExistsError);
      expect(await refs.listBranches(PARENT)).toEqual([linkOf("a", 0, 2)]);
      expect(await idsOf(refs)).toEqual([2, 4].map((n) => sampleThreadId(n)));
      // A key already linked is not made again, so its record's id is not looked at.
      expect(await refs.createBranches([newBranch("a", 0, 4)])).toEqual([linkOf("a", 0, 2)]);
    });

    it("refuses links and records that break the schema, changing nothing", async () => {
      const { refs } = current();
      const good = newBranch("a", 0, 2);
      const bad: NewBranch[] = [
        { link: { ...good.link, parent: "x" } },
        { link: { ...good.link, step: 0 } },
        { link: { ...good.link, key: "" } },
        { link: { ...good.link, index: -1 } },
        { link: { ...good.link, thread: "../x" } },
        { link: { ...good.link, createdAt: "now" } },
        { link: good.link, record: { ...(good.record as ThreadRecord), head: "nope" } },
        { link: good.link, record: sampleBranchRecord(linkOf("a", 0, 3)) },
      ];
      for (const entry of bad) {
        await expect(refs.createBranches([newBranch("b", 1, 4), entry])).rejects.toThrow(InvalidRecordError);
      }
      expect(await refs.listBranches(PARENT)).toEqual([]);
      expect(await idsOf(refs)).toEqual([]);
      await expect(refs.listBranches(PARENT, 0)).rejects.toThrow(InvalidRecordError);
      await expect(refs.listBranches(PARENT, 1.5)).rejects.toThrow(InvalidRecordError);
    });

    it("lists a parent's links by step, then index, all of them or one step's, whatever order they were made in", async () => {
      const { refs } = current();
      await refs.createBranches([newBranch("z", 1, 2, 7), newBranch("y", 0, 3, 7)]);
      await refs.createBranches([newBranch("1", 1, 4), newBranch("0", 0, 5)]);
      const otherParent = { ...linkOf("a", 0, 6), parent: sampleThreadId(20) };
      await refs.createBranches([{ link: otherParent }]);
      const expected = [linkOf("0", 0, 5), linkOf("1", 1, 4), linkOf("y", 0, 3, 7), linkOf("z", 1, 2, 7)];
      expect(await refs.listBranches(PARENT)).toEqual(expected);
      expect(await refs.listBranches(PARENT, 7)).toEqual(expected.slice(2));
      expect(await refs.listBranches(PARENT, 4)).toEqual([]);
      expect(await refs.listBranches(sampleThreadId(21))).toEqual([]);
      // A call naming two steps gets both steps' links back.
      expect(await refs.createBranches([newBranch("z", 1, 8, 7), newBranch("0", 0, 9)])).toEqual(expected);
      const all: BranchLink[] = [];
      for await (const link of refs.listAllBranches()) all.push(link);
      expect(all).toEqual([...expected, otherParent]);
      // Copies: changing what was read changes nothing stored.
      const [read] = await refs.listBranches(PARENT);
      if (read !== undefined) read.key = "changed";
      expect(await refs.listBranches(PARENT)).toEqual(expected);
    });

    it("deletes a parent's links with the parent, and keeps its branches and their links elsewhere", async () => {
      const { refs } = current();
      const parent = sampleThreadRecord({ id: PARENT, status: "waiting" });
      await refs.createThread(parent);
      await refs.createBranches([newBranch("a", 0, 2), newBranch("b", 1, 3)]);
      const fork = sampleThreadId(10);
      await refs.createThread(sampleThreadRecord({ id: fork }));
      await refs.createBranches([{ link: { ...linkOf("a", 0, 2), parent: fork } }]);
      expect(await refs.deleteThread(PARENT, OTHER_STEP, new Date())).toBe(false);
      expect(await refs.listBranches(PARENT)).toHaveLength(2);
      expect(await refs.deleteThread(PARENT, parent.head, new Date())).toBe(true);
      expect(await refs.listBranches(PARENT)).toEqual([]);
      expect(await refs.listBranches(fork)).toEqual([{ ...linkOf("a", 0, 2), parent: fork }]);
      expect(await idsOf(refs)).toEqual([2, 3, 10].map((n) => sampleThreadId(n)));
      // Deleting a branch leaves the links that name it: its parent still shows where it was.
      expect(await refs.deleteThread(sampleThreadId(2), SAMPLE_FAN_OUT, new Date())).toBe(true);
      expect(await refs.listBranches(fork)).toEqual([{ ...linkOf("a", 0, 2), parent: fork }]);
    });

    it("keeps every branch's fan-out step as a root", async () => {
      const { refs } = current();
      const branch = sampleBranchRecord(linkOf("a", 0, 2), {
        start: OTHER_STEP,
        head: OTHER_STEP,
        branchOf: { thread: PARENT, step: 3, branch: "a", address: SAMPLE_FAN_OUT, role: null },
      });
      await refs.createThread(branch);
      const roots = new Set<string>();
      for await (const root of refs.listThreadRoots()) roots.add(root);
      expect([...roots].sort()).toEqual([SAMPLE_FAN_OUT, OTHER_STEP].sort());
    });
  });
}
