import { describe, expect, it } from "bun:test";
import { createMemoryRefStore, type RefStore, StoreUnreachableError } from "@uwf/cas";
import { deadPid, waitFor } from "@uwf/cas/test";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { LeaseLostError } from "../errors/lease-lost-error.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { holdLease, withThreadLease } from "./with-thread-lease.ts";

const THREAD = "01JTHREAD0000000000000000A";
// Renewed every second (a quarter of it, at least a second).
const TTL_MS = 4_000;

function options(refs: RefStore, host = "here") {
  return { refs, threadId: THREAD, ttlMs: TTL_MS, host, now: () => new Date() };
}

/** Work that waits until its lease's signal aborts, then fails as a step whose agent was stopped does. */
async function untilAborted(signal: AbortSignal): Promise<never> {
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  throw new InterruptedError("SIGTERM", "2W53JPNXF556H");
}

describe("withThreadLease", () => {
  it("holds the lease while the work runs and releases it after", async () => {
    const refs = createMemoryRefStore();
    const result = await withThreadLease(options(refs), async () => {
      const [lease] = await refs.listLeases();
      expect(lease).toMatchObject({ threadId: THREAD, pid: process.pid, host: "here" });
      return "done";
    });
    expect(result).toBe("done");
    expect(await refs.listLeases()).toEqual([]);
  });

  it("refuses a live holder at once, saying when its lease expires", async () => {
    const refs = createMemoryRefStore();
    const now = new Date();
    await refs.acquireLease(THREAD, { ttlMs: 60_000, pid: deadPid(), host: "there", now });
    const busy = withThreadLease(options(refs), async () => "never");
    await expect(busy).rejects.toThrow(ThreadBusyError);
    await expect(busy).rejects.toThrow(
      `its lease expires at ${new Date(now.getTime() + 60_000).toISOString()} (in 60 s)`,
    );
  });

  it("takes over at once from a holder of this host whose process is gone", async () => {
    const refs = createMemoryRefStore();
    await refs.acquireLease(THREAD, { ttlMs: 60_000, pid: deadPid(), host: "here", now: new Date() });
    expect(await withThreadLease(options(refs), async () => (await refs.listLeases())[0]?.pid)).toBe(process.pid);
  });

  it("records the agent's process group in the lease", async () => {
    const refs = createMemoryRefStore();
    await withThreadLease(options(refs), async (held) => {
      held.recordAgent(process.pid);
      await Bun.sleep(10);
      expect((await refs.listLeases())[0]).toMatchObject({ agentGroup: process.pid });
    });
  });

  it("aborts the work when another process takes the lease over, failing with lease-lost (exit 75)", async () => {
    const refs = createMemoryRefStore();
    const stepping = withThreadLease(options(refs), async (held) => {
      const [lease] = await refs.listLeases();
      if (lease === undefined) throw new Error("expected the lease");
      // Another stepper takes it over, as it would once the lease expired.
      await refs.acquireLease(THREAD, { ttlMs: 60_000, pid: 1, host: "there", now: new Date(), takeOver: lease.token });
      return untilAborted(held.signal);
    });
    const error = await stepping.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LeaseLostError);
    expect((error as LeaseLostError).code).toBe("lease-lost");
    expect((error as LeaseLostError).message).toBe(
      `thread ${THREAD}: the step lost its lease (another process took it over), so it stopped; the thread is unchanged; what the agent had written is kept in run 2W53JPNXF556H`,
    );
    // The new holder's lease is left alone.
    expect((await refs.listLeases())[0]).toMatchObject({ host: "there" });
  });

  it("aborts the work when renewing the lease fails, and will not move the head after", async () => {
    const memory = createMemoryRefStore();
    const full = new Error("database or disk is full");
    const refs: RefStore = {
      ...memory,
      renewLease: async () => {
        throw full;
      },
    };
    let assertion: unknown = null;
    const stepping = withThreadLease(options(refs), async (held) => {
      await new Promise((resolve) => held.signal.addEventListener("abort", resolve, { once: true }));
      try {
        held.assertHeld();
      } catch (error) {
        assertion = error;
      }
      throw assertion;
    });
    const error = await stepping.catch((caught: unknown) => caught);
    expect(error).toBe(assertion);
    expect(error).toBeInstanceOf(LeaseLostError);
    expect((error as LeaseLostError).code).toBe("lease-renewal-failed");
    expect((error as LeaseLostError).message).toContain("(renewing it failed: database or disk is full)");
    expect((error as LeaseLostError).cause).toBe(full);
    expect(await memory.listLeases()).toEqual([]);
  });

  it("reports an unreachable store as such, not as a lost lease, when recording the agent on the lease fails", async () => {
    const memory = createMemoryRefStore();
    const away = new StoreUnreachableError("postgres://uwf:****@127.0.0.1/uwf", "the database system is shutting down");
    const refs: RefStore = {
      ...memory,
      recordLeaseAgent: async () => {
        throw away;
      },
    };
    const stepping = withThreadLease(options(refs), async (held) => {
      held.recordAgent(process.pid);
      await untilAborted(held.signal);
    });
    const error = await stepping.catch((caught: unknown) => caught);
    expect(error).toBe(away);
    expect(await memory.listLeases()).toEqual([]);
  });

  it("follows the caller's signal, and lets its error through as it is", async () => {
    const refs = createMemoryRefStore();
    const abort = new AbortController();
    const stepping = withThreadLease({ ...options(refs), signal: abort.signal }, (held) => untilAborted(held.signal));
    abort.abort("SIGHUP");
    await expect(stepping).rejects.toThrow("interrupted by SIGTERM; the thread is unchanged");
    expect(await refs.listLeases()).toEqual([]);
  });
});

describe("holdLease", () => {
  /** A lease taken on a fresh store, and held by holdLease. */
  async function holdNewLease() {
    const refs = createMemoryRefStore();
    const acquired = await refs.acquireLease(THREAD, {
      ttlMs: TTL_MS,
      pid: process.pid,
      host: "here",
      now: new Date(),
    });
    if (!acquired.acquired) throw new Error("expected the lease");
    const hold = holdLease({ refs, lease: acquired.lease, ttlMs: TTL_MS, now: () => new Date() });
    return { refs, acquired, hold };
  }

  it("holds a lease already taken, renewing it, until it is released", async () => {
    const { refs, acquired, hold } = await holdNewLease();
    const expiresAt = Date.parse(acquired.lease.expiresAt);
    await waitFor(async () => Date.parse((await refs.listLeases())[0]?.expiresAt ?? "") > expiresAt, {
      what: "a renewal",
    });
    hold.assertHeld();
    expect(hold.signal.aborted).toBe(false);
    await hold.release();
    expect(await refs.listLeases()).toEqual([]);
  });

  it("explains a failure of work done after the lease was lost as lease-lost", async () => {
    const { refs, acquired, hold } = await holdNewLease();
    const failure = new Error("the agent stopped");
    expect(hold.explain(failure)).toBe(failure);
    const takeOver = acquired.lease.token;
    await refs.acquireLease(THREAD, { ttlMs: 60_000, pid: 1, host: "there", now: new Date(), takeOver });
    hold.recordAgent(process.pid);
    await waitFor(() => hold.signal.aborted, { what: "the hold noticing" });
    expect(() => hold.assertHeld()).toThrow(LeaseLostError);
    expect(hold.explain(failure)).toBeInstanceOf(LeaseLostError);
    await hold.release({ afterFailure: true });
    expect((await refs.listLeases())[0]).toMatchObject({ host: "there" });
  });
});
