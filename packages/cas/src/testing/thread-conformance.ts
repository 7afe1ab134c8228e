import { describe, expect, it } from "bun:test";
import type { ThreadRecord } from "@uwf/protocol";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { HEAD_A, HEAD_B, HEAD_C } from "./sample-addresses.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

/** A fork's origin that did not replace a reply. */
function forkAt(address: string, thread: string | null, step: number): NonNullable<ThreadRecord["forkedFrom"]> {
  return { thread, step, address, replaced: false };
}

/** The thread records and the workflow registry (`ThreadRefs`, `WorkflowRegistry`) every backend must keep alike. */
export function describeThreadConformance(current: CurrentStore): void {
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
}
