import { describe, expect, it } from "bun:test";
import type { ThreadRecord } from "@uwf/protocol";
import { createEngineTestKit } from "../test/engine-test-kit.ts";
import {
  cancelThread,
  loadHistory,
  ResumeMismatchError,
  readChain,
  resumeThread,
  type StepStart,
  stepThread,
  stepUntilDone,
  ThreadEndedError,
} from "./index.ts";

/** A memory store, a thread of the linear workflow, and what every step needs; no CLI. */
async function startLinearThread() {
  const kit = createEngineTestKit();
  const record = await kit.startThread();
  return { store: kit.store, record, step: kit.stepOptions(record.id), cleanup: kit.cleanup };
}

describe("the engine's API, without the CLI", () => {
  it("starts a thread and steps it through a scripted agent to its end", async () => {
    const { store, record, step, cleanup } = await startLinearThread();
    try {
      expect(record).toMatchObject({ workflow: "linear", status: "active", next: "planner", stepCount: 0 });
      expect(record.head).toBe(record.start);

      const first = await stepThread(step);
      expect(first.kind).toBe("stepped");
      expect(first.record).toMatchObject({ status: "active", next: "doer", stepCount: 1 });

      const phases: string[] = [];
      const started: StepStart[] = [];
      const finished: [string, ThreadRecord["status"]][] = [];
      const done = await stepUntilDone({
        ...step,
        maxSteps: Number.POSITIVE_INFINITY,
        trace: (phase) => phases.push(phase),
        onStarted: async (start) => {
          started.push(start);
        },
        onStepFinished: (summary, after) => {
          finished.push([summary.role, after.status]);
        },
      });
      expect(done.error).toBeUndefined();
      expect(done.steps.map((summary) => summary.role)).toEqual(["doer"]);
      expect(started.map(({ number, role }) => [number, role])).toEqual([[2, "doer"]]);
      expect(finished).toEqual([["doer", "ended"]]);
      expect(phases).toContain("lease taken");
      expect(phases).toContain("head moved");
      expect(done.record).toMatchObject({ status: "ended", stepCount: 2 });
      expect(await store.refs.getThread(record.id)).toEqual(done.record);

      const chain = await readChain(store, done.record.head, { thread: done.record });
      expect(chain.start.prompt).toBe("Say hello");
      expect(chain.steps.map((entry) => entry.role)).toEqual(["planner", "doer"]);
      const history = await loadHistory(store.objects, chain);
      expect(history.map(({ output, body }) => ({ output, body }))).toEqual([
        { output: { plan: "write hello.txt" }, body: "I will write hello.txt." },
        { output: { done: true }, body: "Wrote hello.txt." },
      ]);
    } finally {
      cleanup();
    }
  });

  it("returns a refused step as data, with the thread as it stands, and throws none", async () => {
    const { record, step, cleanup } = await startLinearThread();
    try {
      await stepUntilDone({ ...step, maxSteps: 2 });
      const refused = await stepUntilDone({ ...step, maxSteps: 1 });
      expect(refused.refused).toBe(true);
      expect(refused.error).toBeInstanceOf(ThreadEndedError);
      expect(refused.record).toMatchObject({ id: record.id, status: "ended" });
      expect(refused.steps).toEqual([]);
      // Its message is the engine's own: no `uwf …` command in it.
      expect((refused.error as Error).message).toBe(`thread ${record.id} has ended; nothing to do`);
    } finally {
      cleanup();
    }
  });

  it("throws on an error of the caller's own callback rather than returning it as the step's", async () => {
    const { step, cleanup } = await startLinearThread();
    try {
      const mine = new Error("the caller's reader went away");
      const stepping = stepUntilDone({
        ...step,
        maxSteps: 1,
        onStarted: async () => {
          throw mine;
        },
      });
      await expect(stepping).rejects.toBe(mine);
    } finally {
      cleanup();
    }
  });

  it("refuses a resume without an answer for an ended thread, and cancels an active one", async () => {
    const { store, record, step, cleanup } = await startLinearThread();
    try {
      await stepUntilDone({ ...step, maxSteps: 2 });
      await expect(resumeThread({ ...step, limits: { maxSteps: 10 } })).rejects.toBeInstanceOf(ResumeMismatchError);

      const other = await startLinearThread();
      try {
        const cancelled = await cancelThread({ ...other.step });
        expect(cancelled).toMatchObject({ changed: true, record: { status: "cancelled" } });
        expect(await cancelThread({ ...other.step })).toMatchObject({ changed: false });
      } finally {
        other.cleanup();
      }
      expect((await store.refs.getThread(record.id))?.status).toBe("ended");
    } finally {
      cleanup();
    }
  });
});
