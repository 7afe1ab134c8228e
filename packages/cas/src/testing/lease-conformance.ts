import { describe, expect, it } from "bun:test";
import type { ThreadRecord } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { HEAD_A, HEAD_B, HEAD_C } from "./sample-addresses.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

/** Step leases and worker claims (`LeaseRefs`) every backend must grant alike. */
export function describeLeaseConformance(current: CurrentStore): void {
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

    it("forgets a lease row only while its token is the one given", async () => {
      const { refs } = current();
      const held = await refs.acquireLease(threadId, request(0, 200));
      if (!held.acquired) throw new Error("expected the lease");
      expect(await refs.forgetLease({ threadId, token: "someone-else" })).toBe(false);
      expect(await refs.listLeases()).toHaveLength(1);
      expect(await refs.forgetLease(held.lease)).toBe(true);
      expect(await refs.listLeases()).toEqual([]);
      expect(await refs.forgetLease(held.lease)).toBe(false);
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

    it("passes over the threads a claimer skips, and claims them once it no longer does", async () => {
      const { refs } = current();
      for (let n = 1; n <= 3; n++) await refs.createThread(queued(n));
      const skip = [sampleThreadId(1), sampleThreadId(2)];
      expect((await refs.claimThread({ ...claim(0), skip }))?.thread.id).toBe(sampleThreadId(3));
      expect(await refs.claimThread({ ...claim(0), skip })).toBeNull();
      expect((await refs.claimThread({ ...claim(0), skip: [] }))?.thread.id).toBe(sampleThreadId(1));
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
}
