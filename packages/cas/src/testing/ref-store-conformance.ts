import { describe, expect, it } from "bun:test";
import type { EvalReportEntry, ThreadRecord } from "@uwf/protocol";
import { hashNode } from "../encoding/hash-node.ts";
import { EvalReportExistsError } from "../errors/eval-report-exists-error.ts";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { listStoreRoots } from "../maintenance/list-store-roots.ts";
import type { ChainIndexStep, ChainLink } from "../refs/ref-store.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

const HEAD_A = "2W53JPNXF556H";
const HEAD_B = "B1XRH20GCX3FB";
const HEAD_C = "191B06QRP5RG9";

/** A fork's origin that did not replace a reply. */
function forkAt(address: string, thread: string | null, step: number): NonNullable<ThreadRecord["forkedFrom"]> {
  return { thread, step, address, replaced: false };
}

/** An eval report's entry that passes evalReportEntrySchema, with the fields a test cares about overridden. */
function reportEntry(index: number, overrides: Partial<EvalReportEntry> = {}): EvalReportEntry {
  return {
    id: sampleThreadId(index, "01JR"),
    address: HEAD_A,
    name: "smoke",
    createdAt: "2026-03-04T05:06:07.000Z",
    ...overrides,
  };
}

export function describeRefStoreConformance(current: CurrentStore): void {
  describe("threads", () => {
    it("creates a record and reads it back as a copy", async () => {
      const { refs } = current();
      const forkedFrom = { thread: sampleThreadId(7), step: 2, address: HEAD_C, replaced: false };
      const record = sampleThreadRecord({ forkedFrom, reason: "why", next: null });
      await refs.createThread(record);
      const read = await refs.getThread(record.id);
      expect(read).toEqual(record);
      if (read !== null) read.stepCount = 99;
      expect((await refs.getThread(record.id))?.stepCount).toBe(0);
      expect(await refs.getThread(sampleThreadId(2))).toBeNull();
    });

    it("creates several records in one transaction: all of them, or none when one id exists", async () => {
      const { refs } = current();
      const batch = [1, 2, 3].map((n) => sampleThreadRecord({ id: sampleThreadId(n) }));
      await refs.createThreads(batch);
      expect((await refs.listThreads({})).threads).toEqual(batch.toReversed());
      const clashing = [4, 5, 2, 6].map((n) => sampleThreadRecord({ id: sampleThreadId(n) }));
      await expect(refs.createThreads(clashing)).rejects.toThrow(ThreadExistsError);
      const repeated = [7, 7].map((n) => sampleThreadRecord({ id: sampleThreadId(n) }));
      await expect(refs.createThreads(repeated)).rejects.toThrow(ThreadExistsError);
      await expect(refs.createThreads([sampleThreadRecord({ id: sampleThreadId(8), head: "../x" })])).rejects.toThrow(
        InvalidRecordError,
      );
      expect((await refs.listThreads({})).total).toBe(3);
      await refs.createThreads([]);
    });

    it("keeps the head a recovered record was rebuilt from, absent from other records, which no update sets", async () => {
      const { refs } = current();
      const recovered = sampleThreadRecord({ recoveredFrom: HEAD_A });
      await refs.createThread(recovered);
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2) }));
      expect(await refs.getThread(recovered.id)).toEqual(recovered);
      expect(await refs.getThread(sampleThreadId(2))).not.toHaveProperty("recoveredFrom");
      expect((await refs.listThreads({})).threads.map((thread) => thread.recoveredFrom)).toEqual([undefined, HEAD_A]);
      await expect(
        refs.updateThread(sampleThreadId(2), recovered.head, { recoveredFrom: HEAD_B } as object),
      ).rejects.toThrow(InvalidRecordError);
      expect(await refs.updateThread(recovered.id, recovered.head, { head: HEAD_C })).toBe(true);
      expect((await refs.getThread(recovered.id))?.recoveredFrom).toBe(HEAD_A);
    });

    it("keeps the usage of failed runs apart, absent until an update sets it", async () => {
      const { refs } = current();
      const record = sampleThreadRecord();
      await refs.createThread(record);
      expect(await refs.getThread(record.id)).not.toHaveProperty("failedUsage");
      const failedUsage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.01 };
      expect(await refs.updateThread(record.id, record.head, { usage: failedUsage, failedUsage })).toBe(true);
      expect((await refs.getThread(record.id))?.failedUsage).toEqual(failedUsage);
      expect((await refs.listThreads({})).threads[0]?.failedUsage).toEqual(failedUsage);
      expect(await refs.updateThread(record.id, record.head, { head: HEAD_C })).toBe(true);
      expect((await refs.getThread(record.id))?.failedUsage).toEqual(failedUsage);
    });

    it("keeps a thread's budget, absent from a thread without one, and changes it by update", async () => {
      const { refs } = current();
      const budget = { maxSteps: 5, maxTokens: null, maxCostUsd: 1.25, exceeded: null };
      const limited = sampleThreadRecord({ budget });
      await refs.createThread(limited);
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2) }));
      expect(await refs.getThread(limited.id)).toEqual(limited);
      expect(await refs.getThread(sampleThreadId(2))).not.toHaveProperty("budget");
      expect((await refs.listThreads({})).threads.map((thread) => thread.budget)).toEqual([undefined, budget]);
      const reached = { ...budget, exceeded: "maxSteps" as const };
      const suspended = { status: "suspended", reason: "budget", budget: reached } as const;
      expect(await refs.updateThread(limited.id, limited.head, suspended)).toBe(true);
      expect(await refs.getThread(limited.id)).toMatchObject(suspended);
      expect(await refs.updateThread(limited.id, limited.head, { head: HEAD_C })).toBe(true);
      expect((await refs.getThread(limited.id))?.budget).toEqual(reached);
      for (const bad of [{ ...budget, maxSteps: 0 }, { ...budget, exceeded: "maxTurns" }, { maxSteps: 5 }]) {
        await expect(refs.updateThread(limited.id, HEAD_C, { budget: bad } as object)).rejects.toThrow(
          InvalidRecordError,
        );
      }
    });

    it("refuses a second record with the same id, and records that break the schema", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord());
      await expect(refs.createThread(sampleThreadRecord({ head: HEAD_B }))).rejects.toThrow(ThreadExistsError);
      await expect(refs.createThread(sampleThreadRecord({ id: "../x" }))).rejects.toThrow(InvalidRecordError);
      await expect(refs.createThread(sampleThreadRecord({ id: sampleThreadId(3), head: "nope" }))).rejects.toThrow(
        InvalidRecordError,
      );
    });

    it("advances the head only from the expected head (compare-and-swap)", async () => {
      const { refs } = current();
      const record = sampleThreadRecord({ head: HEAD_A });
      await refs.createThread(record);
      const update = {
        head: HEAD_B,
        stepCount: 1,
        status: "suspended" as const,
        reason: "question",
        updatedAt: "2026-01-03T00:00:00.000Z",
      };
      expect(await refs.updateThread(record.id, HEAD_A.toLowerCase(), update)).toBe(true);
      expect(await refs.getThread(record.id)).toEqual({ ...record, ...update });
      expect(await refs.updateThread(record.id, HEAD_A, { head: HEAD_C, stepCount: 2 })).toBe(false);
      expect((await refs.getThread(record.id))?.head).toBe(HEAD_B);
      expect(await refs.updateThread(sampleThreadId(9), HEAD_A, { head: HEAD_C })).toBe(false);
      expect(await refs.updateThread(record.id, HEAD_B, {})).toBe(true);
      await expect(refs.updateThread(record.id, HEAD_B, { status: "lost" as "ended" })).rejects.toThrow(
        InvalidRecordError,
      );
    });

    it("lists newest first with status and workflow filters, paging and a total", async () => {
      const { refs } = current();
      for (let index = 1; index <= 7; index++) {
        const status = index % 2 === 0 ? "ended" : "active";
        await refs.createThread(
          sampleThreadRecord({ id: sampleThreadId(index), status, workflow: index <= 4 ? "a" : "b" }),
        );
      }
      const ids = (result: { threads: { id: string }[] }) => result.threads.map((thread) => thread.id);
      const all = await refs.listThreads({});
      expect(ids(all)).toEqual([7, 6, 5, 4, 3, 2, 1].map((index) => sampleThreadId(index)));
      expect(all.total).toBe(7);
      const page = await refs.listThreads({ limit: 2, offset: 2 });
      expect(ids(page)).toEqual([sampleThreadId(5), sampleThreadId(4)]);
      expect(page.total).toBe(7);
      const ended = await refs.listThreads({ status: "ended" });
      expect(ids(ended)).toEqual([6, 4, 2].map((index) => sampleThreadId(index)));
      const activeB = await refs.listThreads({ status: "active", workflow: "b", limit: 1 });
      expect(ids(activeB)).toEqual([sampleThreadId(7)]);
      expect(activeB.total).toBe(2);
      expect(await refs.listThreads({ workflow: "none" })).toEqual({ threads: [], total: 0 });
      expect(ids(await refs.listThreads({ limit: 0 }))).toEqual([]);
      await expect(refs.listThreads({ limit: -1 })).rejects.toThrow(InvalidRecordError);
      await expect(refs.listThreads({ offset: 1.5 })).rejects.toThrow(InvalidRecordError);
    });

    it("keeps a fork's lineage: parent, step, address and whether it replaced that step's reply", async () => {
      const { refs } = current();
      const counterfactual = sampleThreadRecord({
        id: sampleThreadId(2),
        forkedFrom: { thread: sampleThreadId(1), step: 3, address: HEAD_C, replaced: true },
      });
      const ofStart = sampleThreadRecord({ id: sampleThreadId(3), forkedFrom: forkAt(HEAD_A, sampleThreadId(1), 0) });
      const addressOnly = sampleThreadRecord({
        id: sampleThreadId(4),
        forkedFrom: { thread: null, step: null, address: HEAD_B, replaced: null },
      });
      for (const record of [counterfactual, ofStart, addressOnly]) {
        await refs.createThread(record);
        expect(await refs.getThread(record.id)).toEqual(record);
      }
      await expect(
        refs.createThread(
          sampleThreadRecord({ id: sampleThreadId(5), forkedFrom: { address: HEAD_A } as ThreadRecord["forkedFrom"] }),
        ),
      ).rejects.toThrow(InvalidRecordError);
      const moved = { thread: sampleThreadId(3), step: 1, address: HEAD_B, replaced: false };
      expect(await refs.updateThread(addressOnly.id, addressOnly.head, { forkedFrom: moved })).toBe(true);
      expect((await refs.getThread(addressOnly.id))?.forkedFrom).toEqual(moved);
    });

    it("keeps the workflow a fork onto another workflow version left, absent from every other fork", async () => {
      const { refs } = current();
      const parent = sampleThreadRecord({ id: sampleThreadId(1) });
      const onto = sampleThreadRecord({
        id: sampleThreadId(2),
        workflowAddress: HEAD_B,
        forkedFrom: { ...forkAt(HEAD_A, parent.id, 0), workflow: parent.workflowAddress },
      });
      const kept = sampleThreadRecord({ id: sampleThreadId(3), forkedFrom: forkAt(HEAD_A, parent.id, 0) });
      for (const record of [parent, onto, kept]) await refs.createThread(record);
      expect(await refs.getThread(onto.id)).toEqual(onto);
      expect(Object.keys((await refs.getThread(kept.id))?.forkedFrom ?? {}).sort()).toEqual([
        "address",
        "replaced",
        "step",
        "thread",
      ]);
      expect((await refs.listThreads({ forksOf: { thread: parent.id } })).threads).toEqual([kept, onto]);
      await expect(
        refs.createThread(
          sampleThreadRecord({
            id: sampleThreadId(4),
            forkedFrom: { ...forkAt(HEAD_A, parent.id, 0), workflow: "not an address" },
          }),
        ),
      ).rejects.toThrow(InvalidRecordError);
      const moved = { ...forkAt(HEAD_B, parent.id, 1), workflow: HEAD_C };
      expect(await refs.updateThread(kept.id, kept.head, { forkedFrom: moved })).toBe(true);
      expect((await refs.getThread(kept.id))?.forkedFrom).toEqual(moved);
    });

    it("lists the forks of a thread, and with `recursive` their forks at any depth", async () => {
      const { refs } = current();
      // 1 ← 2 ← 4 ← 5, 1 ← 3, and 6 a fork that named only its address.
      const parents: Record<number, number | null> = { 1: null, 2: 1, 3: 1, 4: 2, 5: 4 };
      for (const [index, parent] of Object.entries(parents)) {
        const forkedFrom = parent === null ? null : forkAt(HEAD_A, sampleThreadId(parent), 1);
        await refs.createThread(sampleThreadRecord({ id: sampleThreadId(Number(index)), forkedFrom }));
      }
      await refs.createThread(
        sampleThreadRecord({
          id: sampleThreadId(6),
          forkedFrom: { thread: null, step: null, address: HEAD_A, replaced: null },
        }),
      );
      const ids = (result: { threads: { id: string }[] }) => result.threads.map((thread) => thread.id);
      const direct = await refs.listThreads({ forksOf: { thread: sampleThreadId(1) } });
      expect(ids(direct)).toEqual([sampleThreadId(3), sampleThreadId(2)]);
      expect(direct.total).toBe(2);
      const all = await refs.listThreads({ forksOf: { thread: sampleThreadId(1), recursive: true } });
      expect(ids(all)).toEqual([5, 4, 3, 2].map((index) => sampleThreadId(index)));
      const page = await refs.listThreads({
        forksOf: { thread: sampleThreadId(1), recursive: true },
        limit: 1,
        offset: 1,
      });
      expect(page).toMatchObject({ threads: [{ id: sampleThreadId(4) }], total: 4 });
      expect(ids(await refs.listThreads({ forksOf: { thread: sampleThreadId(4), recursive: true } }))).toEqual([
        sampleThreadId(5),
      ]);
      expect(await refs.listThreads({ forksOf: { thread: sampleThreadId(5) } })).toEqual({ threads: [], total: 0 });
      expect(await refs.listThreads({ forksOf: { thread: sampleThreadId(9), recursive: true } })).toEqual({
        threads: [],
        total: 0,
      });
      const family = { thread: sampleThreadId(1), recursive: true };
      expect((await refs.listThreads({ forksOf: family, status: "active", workflow: "review-loop" })).total).toBe(4);
      expect((await refs.listThreads({ forksOf: family, status: "ended" })).total).toBe(0);
    });

    it("lists the threads of one start node", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1), start: HEAD_A, head: HEAD_A }));
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2), start: HEAD_B, head: HEAD_B }));
      await refs.createThread(
        sampleThreadRecord({ id: sampleThreadId(3), start: HEAD_A, head: HEAD_C, forkedFrom: forkAt(HEAD_A, null, 0) }),
      );
      const sameStart = await refs.listThreads({ start: HEAD_A.toLowerCase() });
      expect(sameStart.threads.map((thread) => thread.id)).toEqual([sampleThreadId(3), sampleThreadId(1)]);
      expect(sameStart.total).toBe(2);
      await expect(refs.listThreads({ start: "../x" })).rejects.toThrow(InvalidAddressError);
    });

    it("keeps an exploration's fork tagged, and leaves such forks out when asked", async () => {
      const { refs } = current();
      const exploredBy = { exploration: sampleThreadId(9), step: 2 };
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1), start: HEAD_A, head: HEAD_A }));
      await refs.createThread(
        sampleThreadRecord({
          id: sampleThreadId(2),
          start: HEAD_A,
          head: HEAD_A,
          forkedFrom: forkAt(HEAD_A, sampleThreadId(1), 0),
          exploredBy,
        }),
      );
      expect((await refs.getThread(sampleThreadId(2)))?.exploredBy).toEqual(exploredBy);
      expect((await refs.getThread(sampleThreadId(1)))?.exploredBy).toBeUndefined();
      expect((await refs.listThreads({})).total).toBe(2);
      const hidden = await refs.listThreads({ explorations: false });
      expect(hidden.threads.map((thread) => thread.id)).toEqual([sampleThreadId(1)]);
      expect(hidden.total).toBe(1);
    });

    it("lists the suspended threads whose deadline has come, and drops a deadline with its status", async () => {
      const { refs } = current();
      const suspended = (n: number, deadline?: string) =>
        sampleThreadRecord({
          id: sampleThreadId(n),
          status: "suspended",
          reason: "waiting",
          ...(deadline === undefined ? {} : { deadline }),
        });
      await refs.createThreads([
        suspended(1, "2026-01-03T00:00:00.000Z"),
        suspended(2, "2026-01-05T00:00:00.000Z"),
        suspended(3),
        sampleThreadRecord({ id: sampleThreadId(4) }),
      ]);
      const dueBy = async (time: string) =>
        (await refs.listThreads({ dueBy: time })).threads.map((thread) => thread.id).sort();
      expect(await dueBy("2026-01-02T23:59:59.999Z")).toEqual([]);
      expect(await dueBy("2026-01-03T00:00:00.000Z")).toEqual([sampleThreadId(1)]);
      expect(await dueBy("2026-02-01T00:00:00.000Z")).toEqual([sampleThreadId(1), sampleThreadId(2)]);
      expect((await refs.listThreads({ dueBy: "2026-02-01T00:00:00.000Z", limit: 1 })).total).toBe(2);
      expect((await refs.getThread(sampleThreadId(3)))?.deadline).toBeUndefined();
      await expect(refs.listThreads({ dueBy: "soon" })).rejects.toThrow(InvalidRecordError);

      // An update of the deadline alone moves it; a new status without one removes it; null removes it.
      const head = sampleThreadRecord().head;
      expect(await refs.updateThread(sampleThreadId(2), head, { deadline: "2026-01-04T00:00:00.000Z" })).toBe(true);
      expect(await dueBy("2026-01-04T00:00:00.000Z")).toEqual([sampleThreadId(1), sampleThreadId(2)]);
      expect(await refs.updateThread(sampleThreadId(1), head, { status: "active", reason: null })).toBe(true);
      expect((await refs.getThread(sampleThreadId(1)))?.deadline).toBeUndefined();
      expect(await refs.updateThread(sampleThreadId(2), head, { deadline: null })).toBe(true);
      expect((await refs.getThread(sampleThreadId(2)))?.deadline).toBeUndefined();
      expect(await dueBy("2027-01-01T00:00:00.000Z")).toEqual([]);
      // A status set with its deadline keeps it.
      const deadline = "2026-01-06T00:00:00.000Z";
      expect(await refs.updateThread(sampleThreadId(4), head, { status: "suspended", deadline })).toBe(true);
      expect((await refs.getThread(sampleThreadId(4)))?.deadline).toBe(deadline);
      expect(await dueBy(deadline)).toEqual([sampleThreadId(4)]);
    });

    it("finds ids by case-insensitive prefix, at most `limit` of them", async () => {
      const { refs } = current();
      for (const prefix of ["01JDAA", "01JDAB", "01JDAA", "01JEZZ"]) {
        const id = sampleThreadId((await refs.listThreads({})).total + 1, prefix);
        await refs.createThread(sampleThreadRecord({ id }));
      }
      expect(await refs.findThreadIds("01jdaa", 10)).toHaveLength(2);
      expect(await refs.findThreadIds("01JDA", 10)).toHaveLength(3);
      expect(await refs.findThreadIds("01JD", 2)).toHaveLength(2);
      expect(await refs.findThreadIds("01JE", 10)).toEqual([sampleThreadId(4, "01JEZZ")]);
      expect(await refs.findThreadIds("7Z", 10)).toEqual([]);
      expect(await refs.findThreadIds("%", 10)).toEqual([]);
    });

    it("deletes a record and its chain index only at the expected head, remembering the thread and its head", async () => {
      const { refs } = current();
      const record = sampleThreadRecord({ head: HEAD_B });
      const kept = sampleThreadRecord({ id: sampleThreadId(2), head: HEAD_B });
      await refs.createThread(record);
      await refs.createThread(kept);
      await refs.rememberChainIndex(record.id, { start: record.start, steps: [{ address: HEAD_B, role: "writer" }] });
      const deletedAt = new Date("2026-02-03T04:05:06.000Z");
      expect(await refs.deleteThread(record.id, HEAD_C, deletedAt)).toBe(false);
      expect(await refs.getThread(record.id)).toEqual(record);
      expect(await refs.listDeletedThreads()).toEqual([]);
      expect(await refs.deleteThread(record.id, HEAD_B, deletedAt)).toBe(true);
      expect(await refs.getThread(record.id)).toBeNull();
      expect(await refs.recallChainIndex(record.id)).toBeNull();
      expect(await refs.deleteThread(record.id, HEAD_B, deletedAt)).toBe(false);
      expect(await refs.listDeletedThreads()).toEqual([
        { id: record.id, head: HEAD_B, deletedAt: "2026-02-03T04:05:06.000Z" },
      ]);
      expect((await refs.listThreads({})).threads.map((thread) => thread.id)).toEqual([kept.id]);
      await expect(refs.deleteThread(kept.id, "../x", deletedAt)).rejects.toThrow(InvalidAddressError);
    });

    it("remembers threads deleted elsewhere, keeping an entry it has and leaving records alone", async () => {
      const { refs } = current();
      const record = sampleThreadRecord({ head: HEAD_B });
      await refs.createThread(record);
      const first = { id: sampleThreadId(5), head: HEAD_A, deletedAt: "2026-02-03T04:05:06.000Z" };
      await refs.rememberDeletedThreads([first]);
      await refs.rememberDeletedThreads([
        { ...first, head: HEAD_C },
        { id: record.id, head: HEAD_B, deletedAt: "2026-02-04T00:00:00.000Z" },
      ]);
      expect(await refs.listDeletedThreads()).toEqual([
        { id: record.id, head: HEAD_B, deletedAt: "2026-02-04T00:00:00.000Z" },
        first,
      ]);
      expect(await refs.getThread(record.id)).toEqual(record);
      await expect(refs.rememberDeletedThreads([{ ...first, id: "x" }])).rejects.toThrow(InvalidRecordError);
      await expect(refs.rememberDeletedThreads([{ ...first, head: "../x" }])).rejects.toThrow(InvalidAddressError);
    });

    it("lists heads, starts and fork points as roots", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1), start: HEAD_A, head: HEAD_B }));
      await refs.createThread(
        sampleThreadRecord({ id: sampleThreadId(2), start: HEAD_A, head: HEAD_B, forkedFrom: forkAt(HEAD_C, null, 1) }),
      );
      const roots = new Set<string>();
      for await (const root of refs.listThreadRoots()) roots.add(root);
      expect([...roots].sort()).toEqual([HEAD_C, HEAD_A, HEAD_B].sort());
    });

    it("lists the workflow a fork onto another version runs under as a root, which no start node names", async () => {
      const { refs } = current();
      const version = "0123456789ABC";
      await refs.createThread(
        sampleThreadRecord({
          id: sampleThreadId(1),
          start: HEAD_A,
          head: HEAD_B,
          workflowAddress: version,
          forkedFrom: { ...forkAt(HEAD_B, null, 1), workflow: HEAD_C },
        }),
      );
      const roots = new Set<string>();
      for await (const root of refs.listThreadRoots()) roots.add(root);
      expect([...roots].sort()).toEqual([HEAD_A, HEAD_B, version].sort());
    });
  });

  describe("workflow registry", () => {
    it("sets, replaces, reads and lists entries by name", async () => {
      const { refs } = current();
      expect(await refs.getWorkflow("review-loop")).toBeNull();
      await refs.setWorkflow({ name: "review-loop", address: HEAD_A, updatedAt: "2026-01-01T00:00:00.000Z" });
      await refs.setWorkflow({ name: "draft", address: HEAD_B, updatedAt: "2026-01-01T00:00:00.000Z" });
      const replaced = { name: "review-loop", address: HEAD_C, updatedAt: "2026-01-02T00:00:00.000Z" };
      await refs.setWorkflow(replaced);
      expect(await refs.getWorkflow("review-loop")).toEqual(replaced);
      expect((await refs.listWorkflows()).map((entry) => entry.name)).toEqual(["draft", "review-loop"]);
      await expect(refs.setWorkflow({ name: "x", address: "../x", updatedAt: "now" })).rejects.toThrow(
        InvalidRecordError,
      );
    });
  });

  describe("eval reports", () => {
    it("saves an entry and reads it back as a copy, and nothing for another id", async () => {
      const { refs } = current();
      const entry = reportEntry(1, { name: "suite: review ✓" });
      await refs.saveEvalReport(entry);
      const read = await refs.getEvalReport(entry.id);
      expect(read).toEqual(entry);
      if (read !== null) read.name = "changed";
      expect(await refs.getEvalReport(entry.id)).toEqual(entry);
      expect(await refs.getEvalReport(reportEntry(2).id)).toBeNull();
      expect(await refs.getEvalReport(sampleThreadId(1))).toBeNull();
    });

    it("refuses a second entry with the same id, keeping the first, and entries that break the schema", async () => {
      const { refs } = current();
      const entry = reportEntry(1);
      await refs.saveEvalReport(entry);
      const again = refs.saveEvalReport({ ...entry, address: HEAD_B, name: "other" });
      await expect(again).rejects.toThrow(EvalReportExistsError);
      await expect(again).rejects.toThrow(`eval report ${entry.id} already exists`);
      expect(await refs.getEvalReport(entry.id)).toEqual(entry);
      const bad: object[] = [
        { ...reportEntry(2), id: "../x" },
        { ...reportEntry(2), address: "nope" },
        { ...reportEntry(2), createdAt: "yesterday" },
        { ...reportEntry(2), name: 7 },
        { ...reportEntry(2), extra: true },
        { id: reportEntry(2).id, address: HEAD_A, name: "smoke" },
      ];
      for (const input of bad) {
        await expect(refs.saveEvalReport(input as EvalReportEntry)).rejects.toThrow(InvalidRecordError);
      }
      expect((await refs.listEvalReports({})).total).toBe(1);
    });

    it("lists newest first, by name, with paging and a total", async () => {
      const { refs } = current();
      const names = ["smoke", "nightly", "smoke", "Smoke", "smoke", "50% off"];
      for (const [index, name] of names.entries()) await refs.saveEvalReport(reportEntry(index + 1, { name }));
      const ids = (result: { reports: EvalReportEntry[] }) => result.reports.map((entry) => entry.id);
      const all = await refs.listEvalReports({});
      expect(all.reports).toEqual([6, 5, 4, 3, 2, 1].map((index) => reportEntry(index, { name: names[index - 1] })));
      expect(all.total).toBe(6);
      const page = await refs.listEvalReports({ limit: 2, offset: 1 });
      expect(ids(page)).toEqual([reportEntry(5).id, reportEntry(4).id]);
      expect(page.total).toBe(6);
      const smoke = await refs.listEvalReports({ name: "smoke" });
      expect(ids(smoke)).toEqual([5, 3, 1].map((index) => reportEntry(index).id));
      expect(smoke.total).toBe(3);
      expect(await refs.listEvalReports({ name: "smoke", limit: 1, offset: 1 })).toEqual({
        reports: [reportEntry(3)],
        total: 3,
      });
      expect(ids(await refs.listEvalReports({ name: "50% off" }))).toEqual([reportEntry(6).id]);
      expect(await refs.listEvalReports({ name: "50%" })).toEqual({ reports: [], total: 0 });
      expect(await refs.listEvalReports({ limit: 0 })).toEqual({ reports: [], total: 6 });
      expect(await refs.listEvalReports({ offset: 6 })).toEqual({ reports: [], total: 6 });
      await expect(refs.listEvalReports({ limit: -1 })).rejects.toThrow(InvalidRecordError);
      await expect(refs.listEvalReports({ offset: 1.5 })).rejects.toThrow(InvalidRecordError);
    });

    it("finds report ids by case-insensitive prefix, in id order, at most `limit` of them, and no thread ids", async () => {
      const { refs } = current();
      for (const [index, prefix] of ["01JRAA", "01JRAB", "01JRAA", "01JSZZ"].entries()) {
        await refs.saveEvalReport({ ...reportEntry(index + 1), id: sampleThreadId(index + 1, prefix) });
      }
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(9, "01JRAA") }));
      expect(await refs.findEvalReportIds("01jraa", 10)).toEqual([
        sampleThreadId(1, "01JRAA"),
        sampleThreadId(3, "01JRAA"),
      ]);
      expect(await refs.findEvalReportIds("01JRA", 10)).toHaveLength(3);
      expect(await refs.findEvalReportIds("01JR", 2)).toEqual([
        sampleThreadId(1, "01JRAA"),
        sampleThreadId(3, "01JRAA"),
      ]);
      expect(await refs.findEvalReportIds("01JS", 10)).toEqual([sampleThreadId(4, "01JSZZ")]);
      expect(await refs.findEvalReportIds("7Z", 10)).toEqual([]);
      expect(await refs.findEvalReportIds("%", 10)).toEqual([]);
      expect(await refs.findThreadIds("01JRAA", 10)).toEqual([sampleThreadId(9, "01JRAA")]);
      await expect(refs.findEvalReportIds("01", -1)).rejects.toThrow(InvalidRecordError);
    });

    it("deletes an entry once, after which its id is free again", async () => {
      const { refs } = current();
      const entry = reportEntry(1);
      await refs.saveEvalReport(entry);
      await refs.saveEvalReport(reportEntry(2));
      expect(await refs.deleteEvalReport(entry.id)).toBe(true);
      expect(await refs.getEvalReport(entry.id)).toBeNull();
      expect(await refs.deleteEvalReport(entry.id)).toBe(false);
      expect(await refs.deleteEvalReport(reportEntry(3).id)).toBe(false);
      expect(await refs.listEvalReports({})).toEqual({ reports: [reportEntry(2)], total: 1 });
      expect(await refs.findEvalReportIds("01JR", 10)).toEqual([reportEntry(2).id]);
      await refs.saveEvalReport({ ...entry, address: HEAD_C });
      expect(await refs.getEvalReport(entry.id)).toEqual({ ...entry, address: HEAD_C });
    });

    it("makes every report's node a root of the store, for as long as its entry exists", async () => {
      const store = current();
      await store.refs.createThread(sampleThreadRecord({ start: HEAD_A, head: HEAD_A }));
      await store.refs.saveEvalReport(reportEntry(1, { address: HEAD_B }));
      await store.refs.saveEvalReport(reportEntry(2, { address: HEAD_C }));
      expect([...(await listStoreRoots(store.refs))].sort()).toEqual([HEAD_A, HEAD_B, HEAD_C].sort());
      await store.refs.deleteEvalReport(reportEntry(2).id);
      expect([...(await listStoreRoots(store.refs))].sort()).toEqual([HEAD_A, HEAD_B].sort());
    });
  });

  describe("leases", () => {
    const threadId = sampleThreadId(1);
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const request = (seconds: number, pid = 100) => ({ ttlMs: 30_000, pid, host: "box", now: at(seconds) });

    it("grants a free lease with its holder's pid, host, process start and times, and no agent", async () => {
      const { refs } = current();
      const result = await refs.acquireLease(threadId, { ...request(0), processStart: "4242" });
      if (!result.acquired) throw new Error("expected the lease");
      expect(result.lease).toMatchObject({
        threadId,
        pid: 100,
        host: "box",
        processStart: "4242",
        agentGroup: null,
        agentStart: null,
        acquiredAt: at(0).toISOString(),
        expiresAt: at(30).toISOString(),
      });
      expect(result.lease.token.length).toBeGreaterThanOrEqual(16);
      expect(result.replaced).toBeNull();
      const unknown = await refs.acquireLease(sampleThreadId(2), request(0));
      expect(unknown.acquired ? unknown.lease.processStart : "busy").toBeNull();
    });

    it("answers busy with the live holder, and lets another thread's lease through", async () => {
      const { refs } = current();
      const first = await refs.acquireLease(threadId, request(0));
      const second = await refs.acquireLease(threadId, request(29, 200));
      expect(second).toEqual({ acquired: false, holder: first.acquired ? first.lease : first.holder });
      expect((await refs.acquireLease(sampleThreadId(2), request(1, 200))).acquired).toBe(true);
    });

    it("takes over an expired lease, after which the old holder can neither renew nor release it", async () => {
      const { refs } = current();
      const old = await refs.acquireLease(threadId, request(0));
      const taken = await refs.acquireLease(threadId, request(30, 200));
      if (!old.acquired || !taken.acquired) throw new Error("expected both leases");
      expect(taken.lease.token).not.toBe(old.lease.token);
      expect(taken.replaced).toEqual(old.lease);
      expect(await refs.renewLease(old.lease, 30_000, at(31))).toBeNull();
      expect(await refs.releaseLease(old.lease)).toBeNull();
      expect(await refs.acquireLease(threadId, request(32))).toEqual({ acquired: false, holder: taken.lease });
    });

    it("extends a renewed lease and frees a released one", async () => {
      const { refs } = current();
      const held = await refs.acquireLease(threadId, request(0));
      if (!held.acquired) throw new Error("expected the lease");
      const renewed = { ...held.lease, expiresAt: at(80).toISOString() };
      expect(await refs.renewLease(held.lease, 60_000, at(20))).toEqual(renewed);
      const busy = await refs.acquireLease(threadId, request(70, 200));
      expect(busy.acquired ? null : busy.holder.expiresAt).toBe(at(80).toISOString());
      expect(await refs.releaseLease(held.lease)).toEqual(renewed);
      expect((await refs.acquireLease(threadId, request(71, 200))).acquired).toBe(true);
    });

    it("takes over a live lease only from the holder the caller names, and only while it holds it", async () => {
      const { refs } = current();
      const dead = await refs.acquireLease(threadId, request(0));
      if (!dead.acquired) throw new Error("expected the lease");
      const wrong = await refs.acquireLease(threadId, { ...request(1, 200), takeOver: "not-its-token" });
      expect(wrong).toEqual({ acquired: false, holder: dead.lease });
      const taken = await refs.acquireLease(threadId, { ...request(1, 200), takeOver: dead.lease.token });
      if (!taken.acquired) throw new Error("expected the takeover");
      expect(taken.replaced).toEqual(dead.lease);
      expect(taken.lease).toMatchObject({ pid: 200, acquiredAt: at(1).toISOString(), expiresAt: at(31).toISOString() });
      expect(await refs.renewLease(dead.lease, 30_000, at(2))).toBeNull();
      // A second taker that found the same holder dead finds the new one instead.
      const late = await refs.acquireLease(threadId, { ...request(2, 300), takeOver: dead.lease.token });
      expect(late).toEqual({ acquired: false, holder: taken.lease });
    });

    it("records the agent of a lease its holder still owns, and starts each new lease without one", async () => {
      const { refs } = current();
      const held = await refs.acquireLease(threadId, request(0));
      if (!held.acquired) throw new Error("expected the lease");
      expect(await refs.recordLeaseAgent(held.lease, { group: 4321, start: "99" })).toBe(true);
      const busy = await refs.acquireLease(threadId, request(1, 200));
      expect(busy.acquired ? null : busy.holder).toEqual({ ...held.lease, agentGroup: 4321, agentStart: "99" });
      expect(await refs.recordLeaseAgent(held.lease, { group: 4322, start: null })).toBe(true);
      expect((await refs.listLeases())[0]).toMatchObject({ agentGroup: 4322, agentStart: null });
      await expect(refs.recordLeaseAgent(held.lease, { group: 0, start: null })).rejects.toThrow(InvalidRecordError);
      const taken = await refs.acquireLease(threadId, { ...request(2, 200), takeOver: held.lease.token });
      if (!taken.acquired) throw new Error("expected the takeover");
      expect(taken.replaced).toMatchObject({ agentGroup: 4322, agentStart: null });
      expect(taken.lease).toMatchObject({ agentGroup: null, agentStart: null });
      expect(await refs.recordLeaseAgent(held.lease, { group: 1234, start: null })).toBe(false);
      expect(await refs.recordLeaseAgent(taken.lease, { group: 1234, start: "7" })).toBe(true);
      expect(await refs.recordLeaseAgent(taken.lease, null)).toBe(true);
      expect((await refs.listLeases())[0]).toMatchObject({ pid: 200, agentGroup: null, agentStart: null });
    });

    it("keeps a cancel request on the live lease, where renewing and releasing show it to the holder", async () => {
      const { refs } = current();
      expect(await refs.requestCancel(threadId, at(0))).toBeNull();
      const held = await refs.acquireLease(threadId, request(0));
      if (!held.acquired) throw new Error("expected the lease");
      expect(held.lease.cancelRequestedAt).toBeNull();
      expect(await refs.requestCancel(threadId, at(5))).toEqual({
        ...held.lease,
        cancelRequestedAt: at(5).toISOString(),
      });
      // A second request keeps the first one's time.
      expect((await refs.requestCancel(threadId, at(6)))?.cancelRequestedAt).toBe(at(5).toISOString());
      const renewed = await refs.renewLease(held.lease, 30_000, at(10));
      expect(renewed).toEqual({
        ...held.lease,
        expiresAt: at(40).toISOString(),
        cancelRequestedAt: at(5).toISOString(),
      });
      expect((await refs.listLeases())[0]?.cancelRequestedAt).toBe(at(5).toISOString());
      expect(await refs.releaseLease(held.lease)).toEqual(renewed);
      // Released, the request is gone with the lease: the next holder starts without one.
      const next = await refs.acquireLease(threadId, request(11));
      expect(next.acquired ? next.lease.cancelRequestedAt : "busy").toBeNull();
    });

    it("asks no expired lease's holder to cancel, and hands a request on to whoever takes a lease over", async () => {
      const { refs } = current();
      const old = await refs.acquireLease(threadId, request(0));
      if (!old.acquired) throw new Error("expected the lease");
      expect(await refs.requestCancel(threadId, at(29))).not.toBeNull();
      expect(await refs.requestCancel(threadId, at(30))).toBeNull();
      const taken = await refs.acquireLease(threadId, request(31, 200));
      if (!taken.acquired) throw new Error("expected the takeover");
      expect(taken.lease.cancelRequestedAt).toBe(at(29).toISOString());
      expect((await refs.listLeases())[0]).toMatchObject({ pid: 200, cancelRequestedAt: at(29).toISOString() });
      const dead = await refs.acquireLease(sampleThreadId(2), request(0));
      if (!dead.acquired) throw new Error("expected the lease");
      await refs.requestCancel(sampleThreadId(2), at(1));
      const named = await refs.acquireLease(sampleThreadId(2), { ...request(2, 300), takeOver: dead.lease.token });
      expect(named.acquired ? named.lease.cancelRequestedAt : "busy").toBe(at(1).toISOString());
    });

    it("records the head a holder is about to move its thread to, and hands it on to whoever takes the lease over", async () => {
      const { refs } = current();
      await refs.createThread(sampleThreadRecord({ id: threadId, start: HEAD_A, head: HEAD_A }));
      const held = await refs.acquireLease(threadId, request(0));
      if (!held.acquired) throw new Error("expected the lease");
      expect(held.lease.intendedHead).toBeNull();
      expect(await refs.recordLeaseHead(held.lease, HEAD_B.toLowerCase() as typeof HEAD_B)).toBe(true);
      expect((await refs.listLeases())[0]?.intendedHead).toBe(HEAD_B);
      await expect(refs.recordLeaseHead(held.lease, "nope" as typeof HEAD_B)).rejects.toThrow(InvalidRecordError);
      // Its holder died before moving the head: the next holder inherits the head it meant to write.
      const taken = await refs.acquireLease(threadId, { ...request(1, 200), takeOver: held.lease.token });
      if (!taken.acquired) throw new Error("expected the takeover");
      expect(taken.lease.intendedHead).toBe(HEAD_B);
      expect(taken.replaced?.intendedHead).toBe(HEAD_B);
      expect(await refs.recordLeaseHead(held.lease, HEAD_C)).toBe(false);
      // Released with that head unsettled (the thread is still at HEAD_A), the row stays: expired, held by no process.
      expect(await refs.releaseLease(taken.lease)).toEqual(taken.lease);
      const [left] = await refs.listLeases();
      expect(left).toMatchObject({ threadId, pid: 0, intendedHead: HEAD_B, expiresAt: at(1).toISOString() });
      expect(left?.token).not.toBe(taken.lease.token);
      expect(await refs.releaseLease(taken.lease)).toBeNull();
      // Anyone takes it, and a step that moves the head to what it recorded settles it: released, it goes.
      const next = await refs.acquireLease(threadId, request(2, 300));
      if (!next.acquired) throw new Error("expected the expired lease");
      expect(next.lease.intendedHead).toBe(HEAD_B);
      expect(await refs.recordLeaseHead(next.lease, HEAD_C)).toBe(true);
      expect(await refs.updateThread(threadId, HEAD_A, { head: HEAD_C, stepCount: 1 })).toBe(true);
      expect(await refs.releaseLease(next.lease)).toMatchObject({ intendedHead: HEAD_C });
      expect(await refs.listLeases()).toEqual([]);
      // A lease with no head recorded, or of a thread that has no record, goes when released.
      const plain = await refs.acquireLease(sampleThreadId(2), request(3));
      if (!plain.acquired) throw new Error("expected the lease");
      await refs.recordLeaseHead(plain.lease, HEAD_B);
      await refs.releaseLease(plain.lease);
      expect(await refs.listLeases()).toEqual([]);
    });

    it("refuses a lease with a ttl that is not a positive whole number of milliseconds", async () => {
      const { refs } = current();
      await expect(refs.acquireLease(threadId, { ...request(0), ttlMs: 0 })).rejects.toThrow(InvalidRecordError);
    });

    it("lists every lease held, expired ones too, in thread id order, as copies", async () => {
      const { refs } = current();
      expect(await refs.listLeases()).toEqual([]);
      const second = await refs.acquireLease(sampleThreadId(2), request(0, 200));
      const first = await refs.acquireLease(threadId, request(10));
      if (!first.acquired || !second.acquired) throw new Error("expected both leases");
      expect(await refs.renewLease(first.lease, 60_000, at(20))).not.toBeNull();
      const listed = await refs.listLeases();
      expect(listed).toEqual([{ ...first.lease, expiresAt: at(80).toISOString() }, second.lease]);
      (listed[0] as { pid: number }).pid = 1;
      expect((await refs.listLeases())[0]?.pid).toBe(100);
      await refs.releaseLease(first.lease);
      expect(await refs.listLeases()).toEqual([second.lease]);
    });
  });

  describe("worker claims", () => {
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const claim = (seconds: number, workflow?: string, pid = 100) => ({
      ttlMs: 30_000,
      pid,
      host: "box",
      now: at(seconds),
      ...(workflow === undefined ? {} : { workflow }),
    });
    const queued = (n: number, overrides: Partial<ThreadRecord> = {}) =>
      sampleThreadRecord({ id: sampleThreadId(n), queued: true, ...overrides });

    it("claims only active, queued threads, oldest first, each once while its lease lives", async () => {
      const { refs } = current();
      await refs.createThread(queued(5));
      await refs.createThread(queued(2));
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1) }));
      await refs.createThread(queued(3, { status: "suspended" }));
      await refs.createThread(queued(4, { status: "ended" }));
      await refs.createThread(queued(6, { status: "cancelled" }));
      const failure = { code: "agent-failed", message: "exit 1", attempts: 3, failedAt: at(0).toISOString() };
      await refs.createThread(queued(7, { status: "failed", failure }));
      await refs.createThread(queued(8, { queued: false }));

      const first = await refs.claimThread({ ...claim(0), processStart: "77" });
      expect(first?.thread).toEqual(queued(2));
      expect(first?.replaced).toBeNull();
      expect(first?.lease).toMatchObject({
        threadId: sampleThreadId(2),
        pid: 100,
        host: "box",
        processStart: "77",
        agentGroup: null,
        acquiredAt: at(0).toISOString(),
        expiresAt: at(30).toISOString(),
      });
      expect((await refs.acquireLease(sampleThreadId(2), { ...claim(1), takeOver: undefined })).acquired).toBe(false);
      expect((await refs.claimThread(claim(1)))?.thread.id).toBe(sampleThreadId(5));
      expect(await refs.claimThread(claim(2))).toBeNull();
      expect((await refs.listLeases()).map((lease) => lease.threadId)).toEqual([sampleThreadId(2), sampleThreadId(5)]);
    });

    it("skips a thread another holder leases, and takes over one whose lease expired", async () => {
      const { refs } = current();
      await refs.createThread(queued(1));
      await refs.createThread(queued(2));
      const held = await refs.acquireLease(sampleThreadId(1), claim(0, undefined, 7));
      expect(held.acquired).toBe(true);
      expect((await refs.claimThread(claim(10)))?.thread.id).toBe(sampleThreadId(2));
      expect(await refs.claimThread(claim(29))).toBeNull();
      const taken = await refs.claimThread(claim(30));
      expect(taken?.thread.id).toBe(sampleThreadId(1));
      expect(taken?.replaced?.pid).toBe(7);
      if (held.acquired) expect(await refs.renewLease(held.lease, 30_000, at(31))).toBeNull();
    });

    it("gives a worker a claimed thread's cancel request that an expired lease left", async () => {
      const { refs } = current();
      await refs.createThread(queued(1));
      const held = await refs.acquireLease(sampleThreadId(1), claim(0, undefined, 7));
      expect(held.acquired).toBe(true);
      await refs.requestCancel(sampleThreadId(1), at(10));
      const taken = await refs.claimThread(claim(30));
      expect(taken?.lease.cancelRequestedAt).toBe(at(10).toISOString());
    });

    it("claims a released thread again, and only threads of the workflow asked for", async () => {
      const { refs } = current();
      await refs.createThread(queued(1, { workflow: "review" }));
      await refs.createThread(queued(2, { workflow: "solve" }));
      const review = await refs.claimThread(claim(0, "review"));
      expect(review?.thread.id).toBe(sampleThreadId(1));
      expect(await refs.claimThread(claim(0, "review"))).toBeNull();
      if (review !== null) await refs.releaseLease(review.lease);
      expect((await refs.claimThread(claim(1, "review")))?.thread.id).toBe(sampleThreadId(1));
      expect((await refs.claimThread(claim(1, "solve")))?.thread.id).toBe(sampleThreadId(2));
      await expect(refs.claimThread(claim(1, ""))).rejects.toThrow(InvalidRecordError);
    });

    it("never gives one thread to two claimers at once", async () => {
      const { refs } = current();
      for (let n = 1; n <= 5; n++) await refs.createThread(queued(n));
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, pid) => refs.claimThread(claim(0, undefined, pid))),
      );
      const ids = claims.flatMap((claimed) => (claimed === null ? [] : [claimed.thread.id]));
      expect(ids.sort()).toEqual([1, 2, 3, 4, 5].map((n) => sampleThreadId(n)));
    });

    it("keeps a failure's run and an ended thread's outcome, lists by the outcome's status, and removes it with null", async () => {
      const { refs } = current();
      const record = sampleThreadRecord({ id: sampleThreadId(1) });
      await refs.createThread(record);
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2) }));
      const failure = {
        code: "agent-failed",
        message: "exit 1",
        run: HEAD_B,
        attempts: 1,
        failedAt: at(0).toISOString(),
      };
      expect(await refs.updateThread(record.id, record.head, { status: "failed", failure })).toBe(true);
      expect((await refs.getThread(record.id))?.failure).toEqual(failure);
      const outcome = { role: "reviewer", status: "approved", edge: { index: 1, condition: null, key: "approved" } };
      const ended = { status: "ended", failure: null, outcome } as const;
      expect(await refs.updateThread(record.id, record.head, ended)).toBe(true);
      expect(await refs.getThread(record.id)).toEqual({ ...record, status: "ended", outcome });
      expect((await refs.listThreads({ outcome: "approved" })).threads.map((thread) => thread.id)).toEqual([record.id]);
      expect((await refs.listThreads({ outcome: "gave_up" })).total).toBe(0);
      expect(await refs.updateThread(record.id, record.head, { status: "active", outcome: null })).toBe(true);
      expect(await refs.getThread(record.id)).toEqual(record);
      expect((await refs.listThreads({ outcome: "approved" })).total).toBe(0);
    });

    it("keeps the queued flag and a failure, which an update removes with null", async () => {
      const { refs } = current();
      const record = queued(1);
      await refs.createThread(record);
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2) }));
      expect(await refs.getThread(sampleThreadId(2))).not.toHaveProperty("queued");
      expect(await refs.getThread(sampleThreadId(2))).not.toHaveProperty("failure");
      const failure = { code: "agent-failed", message: "exit 1", attempts: 3, failedAt: at(0).toISOString() };
      expect(await refs.updateThread(record.id, record.head, { status: "failed", failure })).toBe(true);
      expect(await refs.getThread(record.id)).toEqual({ ...record, status: "failed", failure });
      expect((await refs.listThreads({ status: "failed" })).threads).toEqual([
        { ...record, status: "failed", failure },
      ]);
      expect(await refs.claimThread(claim(0))).toBeNull();
      expect(await refs.updateThread(record.id, record.head, { status: "active", failure: null })).toBe(true);
      expect(await refs.getThread(record.id)).toEqual(record);
      expect(await refs.updateThread(record.id, record.head, { queued: false })).toBe(true);
      expect((await refs.getThread(record.id))?.queued).toBe(false);
      expect(await refs.claimThread(claim(0))).toBeNull();
    });
  });

  describe("chain links", () => {
    // Links of a made-up chain START <- one <- two <- three; any JSON will do, the store does not parse it.
    const START = "2W53JPNXF556H";
    const chain = (() => {
      const links: ChainLink[] = [];
      let prev = START;
      for (const name of ["one", "two", "three"]) {
        const { address, bytes } = hashNode({ type: "thread-step/1", name, prev });
        links.push({ address, prev, bytes });
        prev = address;
      }
      return links;
    })();
    const [one, two, three] = chain as [ChainLink, ChainLink, ChainLink];
    const addressesOf = (links: ChainLink[]) => links.map((link) => link.address);

    it("recalls a chain newest first, as far as it is cached", async () => {
      const { refs } = current();
      await refs.rememberChainLinks([one, three]);
      expect(addressesOf(await refs.recallChain(three.address))).toEqual([three.address]);
      await refs.rememberChainLinks([two]);
      const recalled = await refs.recallChain(three.address.toLowerCase());
      expect(recalled).toEqual([three, two, one]);
      expect(recalled.every((link) => link.bytes instanceof Uint8Array)).toBe(true);
      expect(addressesOf(await refs.recallChain(two.address))).toEqual([two.address, one.address]);
      expect(await refs.recallChain(START)).toEqual([]);
    });

    it("takes a link again, and hands out copies", async () => {
      const { refs } = current();
      await refs.rememberChainLinks([one, one]);
      await refs.rememberChainLinks([one]);
      const [recalled] = await refs.recallChain(one.address);
      recalled?.bytes.fill(0);
      expect(await refs.recallChain(one.address)).toEqual([one]);
    });

    it("refuses a whole batch when a link's bytes do not hash to its address, or an address is malformed", async () => {
      const { refs } = current();
      const forged = { ...two, bytes: three.bytes };
      await expect(refs.rememberChainLinks([one, forged])).rejects.toThrow(InvalidRecordError);
      await expect(refs.rememberChainLinks([one, { ...two, prev: "../x" }])).rejects.toThrow(InvalidAddressError);
      expect(await refs.recallChain(one.address)).toEqual([]);
      await expect(refs.recallChain("nope")).rejects.toThrow(InvalidAddressError);
    });

    it("forgets the links it is told to, and ignores addresses it does not cache", async () => {
      const { refs } = current();
      await refs.rememberChainLinks(chain);
      await refs.forgetChainLinks([two.address.toLowerCase(), START]);
      expect(addressesOf(await refs.recallChain(three.address))).toEqual([three.address]);
      expect(addressesOf(await refs.recallChain(one.address))).toEqual([one.address]);
    });
  });

  describe("chain indexes", () => {
    const threadId = sampleThreadId(1);
    const START = "2W53JPNXF556H";
    const index = {
      start: START,
      steps: [
        { address: "B1XRH20GCX3FB", role: "writer" },
        { address: "191B06QRP5RG9", role: "reviewer" },
      ],
    };

    it("recalls what it was last told for a thread, and nothing for another", async () => {
      const { refs } = current();
      expect(await refs.recallChainIndex(threadId)).toBeNull();
      await refs.rememberChainIndex(threadId, { start: START, steps: [] });
      await refs.rememberChainIndex(threadId, index);
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
      expect(await refs.recallChainIndex(sampleThreadId(2))).toBeNull();
    });

    it("keeps addresses in canonical form, and hands out copies", async () => {
      const { refs } = current();
      await refs.rememberChainIndex(threadId, {
        start: START.toLowerCase(),
        steps: index.steps.map((step) => ({ ...step, address: step.address.toLowerCase() })),
      });
      const recalled = await refs.recallChainIndex(threadId);
      expect(recalled).toEqual(index);
      for (const step of (recalled?.steps ?? []) as readonly { role: string }[]) step.role = "changed";
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
    });

    it("extends an index that ends at the given head, and no other", async () => {
      const { refs } = current();
      const [first, second] = index.steps as [ChainIndexStep, ChainIndexStep];
      const third = { address: "2SPNY716211N9", role: "writer" };
      expect(await refs.extendChainIndex(threadId, START, [first])).toBe(false);
      await refs.rememberChainIndex(threadId, { start: START, steps: [] });
      expect(await refs.extendChainIndex(threadId, first.address, [second])).toBe(false);
      expect(await refs.extendChainIndex(threadId, START.toLowerCase(), [first])).toBe(true);
      expect(await refs.extendChainIndex(threadId, first.address, [second, third])).toBe(true);
      expect(await refs.recallChainIndex(threadId)).toEqual({ start: START, steps: [first, second, third] });
      expect(await refs.extendChainIndex(threadId, second.address, [third])).toBe(false);
      expect(await refs.extendChainIndex(threadId, third.address, [])).toBe(true);
      expect(await refs.extendChainIndex(threadId, second.address, [])).toBe(false);
      await expect(refs.extendChainIndex(threadId, third.address, [{ address: "../x", role: "w" }])).rejects.toThrow(
        InvalidAddressError,
      );
      await expect(refs.extendChainIndex(threadId, third.address, [{ address: START, role: "" }])).rejects.toThrow(
        InvalidRecordError,
      );
      expect(await refs.recallChainIndex(threadId)).toEqual({ start: START, steps: [first, second, third] });
    });

    it("refuses an index with a malformed address or role, keeping the one it had", async () => {
      const { refs } = current();
      await refs.rememberChainIndex(threadId, index);
      await expect(
        refs.rememberChainIndex(threadId, { start: START, steps: [{ address: "../x", role: "writer" }] }),
      ).rejects.toThrow(InvalidAddressError);
      await expect(refs.rememberChainIndex(threadId, { start: "nope", steps: [] })).rejects.toThrow(
        InvalidAddressError,
      );
      await expect(
        refs.rememberChainIndex(threadId, { start: START, steps: [{ address: START, role: "" }] }),
      ).rejects.toThrow(InvalidRecordError);
      await expect(refs.rememberChainIndex(threadId, { start: START } as never)).rejects.toThrow(InvalidRecordError);
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
    });

    it("lists the threads that have an index, in id order, and forgets one on request", async () => {
      const { refs } = current();
      const listed = async () => {
        const ids: string[] = [];
        for await (const id of refs.listChainIndexedThreads()) ids.push(id);
        return ids;
      };
      expect(await listed()).toEqual([]);
      await refs.rememberChainIndex(sampleThreadId(3), index);
      await refs.rememberChainIndex(threadId, index);
      expect(await listed()).toEqual([threadId, sampleThreadId(3)]);
      await refs.forgetChainIndex(threadId);
      await refs.forgetChainIndex(sampleThreadId(2));
      expect(await refs.recallChainIndex(threadId)).toBeNull();
      expect(await refs.recallChainIndex(sampleThreadId(3))).toEqual(index);
      expect(await listed()).toEqual([sampleThreadId(3)]);
    });
  });
}
