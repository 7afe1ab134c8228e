import { afterEach, describe, expect, it } from "bun:test";
import { openFileStore, openPostgresStore, type Store } from "@uwf/cas";
import { createTemporaryDirectory, startTestPostgres, waitFor } from "@uwf/cas/test";
import type { LiveEvent } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { loadStepSummaries } from "../history/load-step-summaries.ts";
import { stepThread } from "../step/step-thread.ts";
import { stepUntilDone } from "../step/step-until-done.ts";
import { type StoreWatch, watchStore } from "./watch-store.ts";

/** Two stores on the same data: the watcher's, and the writer's (as another process would open it). */
interface Pair {
  watched: Store;
  writer: EngineTestKit;
  close(): Promise<void>;
}

/** The watcher's store and the writer's, both opened by `openStore`; closing them runs `remove` last. */
async function openPair(openStore: () => Promise<Store>, remove: () => void = () => {}): Promise<Pair> {
  const watched = await openStore();
  const writerStore = await openStore();
  const writer = createEngineTestKit({ store: writerStore });
  return {
    watched,
    writer,
    close: async () => {
      await watched.close();
      await writerStore.close();
      writer.cleanup();
      remove();
    },
  };
}

function openFilePair(): Promise<Pair> {
  const home = createTemporaryDirectory();
  return openPair(
    () => openFileStore(home.path),
    () => home.remove(),
  );
}

async function openPostgresPair(): Promise<Pair> {
  const url = (await startTestPostgres()).newStoreUrl();
  return openPair(() => openPostgresStore(url));
}

const opened: { pair: Pair; watch: StoreWatch }[] = [];
/** What checks failed with (onError): none may, or an event would only be missing. */
const failures: unknown[] = [];
afterEach(async () => {
  for (const { pair, watch } of opened.splice(0)) {
    await watch.stop();
    await pair.close();
  }
  expect(failures.splice(0)).toEqual([]);
});

async function watching(pair: Pair, pollMs = 20): Promise<{ events: LiveEvent[]; watch: StoreWatch }> {
  const events: LiveEvent[] = [];
  const watch = await watchStore({
    store: pair.watched,
    onEvent: (event) => events.push(event),
    onError: (error) => failures.push(error),
    pollMs,
  });
  opened.push({ pair, watch });
  return { events, watch };
}

function ofThread(events: readonly LiveEvent[], thread: string): LiveEvent[] {
  return events.filter((event) => event.thread === thread);
}

for (const [backend, openPair] of [
  ["file + SQLite", openFilePair],
  ["PostgreSQL", openPostgresPair],
] as const) {
  describe(`watchStore on ${backend}`, () => {
    it("reports what another store records: a new thread, each step as log gives it, and its end, in order", async () => {
      const pair = await openPair();
      const { events } = await watching(pair);
      const { writer } = pair;
      const started = await writer.startThread();
      await waitFor(() => ofThread(events, started.id).length > 0, { what: "the new thread's event" });
      expect(ofThread(events, started.id)).toEqual([{ type: "thread-updated", thread: started.id, record: started }]);

      const done = await stepUntilDone({ ...writer.stepOptions(started.id), maxSteps: Number.POSITIVE_INFINITY });
      if (done.error !== undefined) throw done.error;
      await waitFor(() => ofThread(events, started.id).some((event) => event.type === "thread-ended"), {
        what: "thread-ended",
      });
      const seen = ofThread(events, started.id);
      const steps = await loadStepSummaries(writer.store, done.record.head);
      expect(seen.filter((event) => event.type === "step-finished")).toEqual(
        steps.map((step) => ({ type: "step-finished", thread: started.id, ...step })),
      );
      const order = seen
        .map((event) => (event.type === "step-finished" ? `step ${event.number}` : event.type))
        .filter((entry) => entry !== "thread-updated" && entry !== "step-started");
      expect(order).toEqual(["step 1", "step 2", "thread-ended"]);
      expect(seen.at(-1)).toEqual({ type: "thread-updated", thread: started.id, record: done.record });
      const ended = seen.find((event) => event.type === "thread-ended");
      expect(ended).toEqual({
        type: "thread-ended",
        thread: started.id,
        head: done.record.head,
        outcome: done.record.outcome,
      });
    });

    it("reports what a running step prints as step-output, and what it printed just before its lease went", async () => {
      const pair = await openPair();
      const { refs } = pair.writer.store;
      const thread = await pair.writer.startThread();
      const { events } = await watching(pair);
      const now = new Date(Date.now() + 1000);
      const taken = await refs.acquireLease(thread.id, { ttlMs: 60_000, pid: process.pid, host: "box", now });
      if (!taken.acquired) throw new Error("expected the lease");
      const at = now.toISOString();
      await refs.appendStepOutput(thread.id, [
        { step: 1, seq: 1, stream: "stdout", text: "one\n", at },
        { step: 1, seq: 2, stream: "stderr", text: "warn\n", at },
      ]);
      await waitFor(() => events.filter((event) => event.type === "step-output").length === 2, { what: "two chunks" });
      await refs.appendStepOutput(thread.id, [{ step: 1, seq: 3, stream: "stdout", text: "last\n", at }]);
      await refs.releaseLease(taken.lease);
      await waitFor(() => events.filter((event) => event.type === "step-output").length === 3, {
        what: "the last chunk",
      });
      expect(events.filter((event) => event.type === "step-output")).toEqual([
        { type: "step-output", thread: thread.id, step: 1, seq: 1, stream: "stdout", text: "one\n", at },
        { type: "step-output", thread: thread.id, step: 1, seq: 2, stream: "stderr", text: "warn\n", at },
        { type: "step-output", thread: thread.id, step: 1, seq: 3, stream: "stdout", text: "last\n", at },
      ]);
    });

    it("reports a lease taken on an active thread as step-started, and a failure, a suspension and a deletion", async () => {
      const pair = await openPair();
      const { events } = await watching(pair);
      const { refs } = pair.writer.store;
      const thread = await pair.writer.startThread();
      const now = new Date(Date.now() + 1000);
      const taken = await refs.acquireLease(thread.id, { ttlMs: 60_000, pid: process.pid, host: "box", now });
      if (!taken.acquired) throw new Error("expected the lease");
      await waitFor(() => events.some((event) => event.type === "step-started"), { what: "step-started" });
      expect(events.filter((event) => event.type === "step-started")).toEqual([
        { type: "step-started", thread: thread.id, number: 1, role: "planner", agent: "", at: now.toISOString() },
      ]);
      await refs.releaseLease(taken.lease);

      const failure = {
        code: "agent-failed",
        message: "the agent exited 1",
        run: null,
        attempts: 3,
        failedAt: now.toISOString(),
      };
      expect(
        await refs.updateThread(thread.id, thread.head, { status: "failed", failure, updatedAt: now.toISOString() }),
      ).toBe(true);
      await waitFor(() => events.some((event) => event.type === "step-failed"), { what: "step-failed" });
      expect(events.find((event) => event.type === "step-failed")).toEqual({
        type: "step-failed",
        thread: thread.id,
        number: 1,
        role: "planner",
        error: { code: "agent-failed", message: "the agent exited 1", data: {} },
        run: null,
      });

      const later = new Date(now.getTime() + 1000).toISOString();
      const update = { status: "suspended", reason: "Which file?", failure: null, updatedAt: later } as const;
      expect(await refs.updateThread(thread.id, thread.head, update)).toBe(true);
      await waitFor(() => events.some((event) => event.type === "thread-suspended"), { what: "thread-suspended" });
      expect(events.find((event) => event.type === "thread-suspended")).toEqual({
        type: "thread-suspended",
        thread: thread.id,
        head: thread.head,
        role: "planner",
        reason: "Which file?",
      });

      expect(await refs.deleteThread(thread.id, thread.head, new Date())).toBe(true);
      await waitFor(() => events.some((event) => event.type === "thread-updated" && event.record === null), {
        what: "the deleted thread's thread-updated",
      });
      expect(events.at(-1)).toEqual({ type: "thread-updated", thread: thread.id, record: null });
    });

    it("reports every step of a thread stepped several times between two checks, and nothing of what was there before", async () => {
      const pair = await openPair();
      const { writer } = pair;
      const before = await writer.finishedThread();
      // Checks only when this store writes itself, or once a minute.
      const { events, watch } = await watching(pair, 60_000);
      const thread = await writer.startThread();
      for (let step = 0; step < 2; step++) {
        const outcome = await stepThread(writer.stepOptions(thread.id));
        expect(outcome.kind).toBe("stepped");
      }
      await Bun.sleep(100);
      // Nothing told the watch yet (another store's writes, no poll in a minute) on SQLite; PostgreSQL notified it.
      await pair.watched.refs.setWorkflow({
        name: "touch",
        address: thread.workflowAddress,
        updatedAt: new Date().toISOString(),
      });
      await waitFor(() => events.some((event) => event.type === "thread-ended"), { what: "thread-ended" });
      await watch.settled();
      expect(events.filter((event) => event.thread === before.record.id)).toEqual([]);
      const steps = events.filter((event) => event.type === "step-finished");
      expect(
        steps.map((event) => (event.type === "step-finished" ? [event.thread, event.number, event.role] : null)),
      ).toEqual([
        [thread.id, 1, "planner"],
        [thread.id, 2, "doer"],
      ]);
    });
  });
}

describe("watchStore", () => {
  it("reports nothing after it was stopped, and stops on its signal", async () => {
    const pair = await openFilePair();
    const controller = new AbortController();
    const events: LiveEvent[] = [];
    const watch = await watchStore({
      store: pair.watched,
      onEvent: (event) => events.push(event),
      signal: controller.signal,
      pollMs: 20,
    });
    opened.push({ pair, watch });
    await pair.writer.startThread();
    await waitFor(() => events.length === 1, { what: "the first event" });
    controller.abort();
    await watch.settled();
    await pair.writer.startThread();
    await Bun.sleep(200);
    expect(events).toHaveLength(1);
  });
});
