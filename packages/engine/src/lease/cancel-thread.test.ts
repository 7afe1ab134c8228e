import { describe, expect, it } from "bun:test";
import { createMemoryRefStore, type RefStore } from "@uwf/cas";
import { sampleThreadRecord } from "@uwf/cas/test";
import type { Lease } from "@uwf/protocol";
import { CancelPendingError } from "../errors/cancel-pending-error.ts";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { cancelThread } from "./cancel-thread.ts";
import { withThreadLease } from "./with-thread-lease.ts";

const THREAD = sampleThreadRecord().id;
const now = () => new Date();

/** A memory ref store holding one active thread, which notes every renewal's answer as it happens. */
async function storeWithThread() {
  const memory = createMemoryRefStore();
  await memory.createThread(sampleThreadRecord());
  const renewals: Array<Lease | null> = [];
  const refs: RefStore = {
    ...memory,
    async renewLease(lease, ttlMs, at) {
      const renewed = await memory.renewLease(lease, ttlMs, at);
      renewals.push(renewed);
      return renewed;
    },
  };
  return { refs, renewals };
}

/** A step's work under the lease: it runs until the lease's signal aborts, then fails as a stopped agent does. */
function stepUntilStopped(
  refs: RefStore,
  host: string,
  ttlMs: number,
  seen: { renewalsAtAbort?: number },
  renewals: unknown[],
) {
  const stepping = withThreadLease({ refs, threadId: THREAD, ttlMs, host, now }, async (held) => {
    await new Promise((resolve) => held.signal.addEventListener("abort", resolve, { once: true }));
    seen.renewalsAtAbort = renewals.length;
    throw new InterruptedError("SIGINT", "2W53JPNXF556H");
  });
  // What it failed with, caught at once: it fails while the test still waits for the cancel.
  return stepping.then(
    () => new Error("the step was not stopped"),
    (error: unknown) => error,
  );
}

describe("cancelThread", () => {
  it("asks a holder on another host, which stops at its next lease renewal and cancels the thread", async () => {
    const { refs, renewals } = await storeWithThread();
    const seen: { renewalsAtAbort?: number } = {};
    // Renewed every second (a quarter of the lease, at least a second).
    const stepping = stepUntilStopped(refs, "there", 4_000, seen, renewals);
    await Bun.sleep(0);
    const cancelled = await cancelThread({ store: { refs }, threadId: THREAD, host: "here", now });

    const error = await stepping;
    expect(error).toBeInstanceOf(ThreadCancelledError);
    expect((error as ThreadCancelledError).message).toBe(
      `thread ${THREAD} was cancelled (uwf cancel) while it stepped, so its agent was stopped; what the agent had written is kept in run 2W53JPNXF556H`,
    );
    // Not signalled (another host): the renewal that answered with the request is what stopped it.
    const stoppedBy = renewals[(seen.renewalsAtAbort ?? 0) - 1];
    expect(stoppedBy?.cancelRequestedAt).toEqual(expect.any(String));
    expect(renewals.slice(0, (seen.renewalsAtAbort ?? 0) - 1).every((lease) => lease?.cancelRequestedAt === null)).toBe(
      true,
    );
    expect(cancelled).toMatchObject({ changed: true, pending: false, holder: { host: "there", pid: process.pid } });
    expect(cancelled.record.status).toBe("cancelled");
    expect((await refs.getThread(THREAD))?.status).toBe("cancelled");
    expect(await refs.listLeases()).toEqual([]);
  });

  it("signals a holder on this host, which looks at once instead of at its next renewal", async () => {
    const { refs, renewals } = await storeWithThread();
    const seen: { renewalsAtAbort?: number } = {};
    // A step's lease: its first renewal would be 15 s away.
    const stepping = stepUntilStopped(refs, "here", 60_000, seen, renewals);
    await Bun.sleep(0);
    const started = Date.now();
    const cancelled = await cancelThread({ store: { refs }, threadId: THREAD, host: "here", now });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await stepping).toBeInstanceOf(ThreadCancelledError);
    expect(renewals[(seen.renewalsAtAbort ?? 0) - 1]?.cancelRequestedAt).toEqual(expect.any(String));
    expect(cancelled).toMatchObject({ changed: true, record: { status: "cancelled" } });
  });

  it("with no wait, records the request and returns; a holder whose work ends before renewing still cancels", async () => {
    const { refs } = await storeWithThread();
    let answer: CancelThreadAnswer | undefined;
    const result = await withThreadLease({ refs, threadId: THREAD, ttlMs: 60_000, host: "there", now }, async () => {
      answer = await cancelThread({ store: { refs }, threadId: THREAD, host: "here", now, waitMs: 0 });
      return "step recorded";
    });
    expect(result).toBe("step recorded");
    expect(answer).toMatchObject({
      changed: false,
      pending: true,
      holder: { host: "there" },
      record: { status: "active" },
    });
    // The request came in after the last renewal: the holder saw it as it released the lease.
    expect((await refs.getThread(THREAD))?.status).toBe("cancelled");
    expect(await refs.listLeases()).toEqual([]);
  });

  it("gives up after the wait when the holder does not stop, leaving the request on its lease", async () => {
    const { refs } = await storeWithThread();
    await refs.acquireLease(THREAD, { ttlMs: 60_000, pid: 4242, host: "there", now: now() });
    const pending = cancelThread({ store: { refs }, threadId: THREAD, host: "here", now, waitMs: 300 });
    await expect(pending).rejects.toThrow(CancelPendingError);
    expect((await refs.listLeases())[0]?.cancelRequestedAt).toEqual(expect.any(String));
    expect((await refs.getThread(THREAD))?.status).toBe("active");
  });
});

type CancelThreadAnswer = Awaited<ReturnType<typeof cancelThread>>;
