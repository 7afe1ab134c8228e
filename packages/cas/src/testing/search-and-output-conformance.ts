import { describe, expect, it } from "bun:test";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { StepOutputChunk } from "../refs/step-output-log.ts";
import type { CurrentFixture } from "./conformance-suite.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
import { waitFor } from "./wait-for.ts";

const AT = "2026-01-02T03:04:05.000Z";

function chunk(step: number, seq: number, text: string, stream: StepOutputChunk["stream"] = "stdout"): StepOutputChunk {
  return { step, seq, stream, text, at: AT };
}

/** The thread search index and the live step output: the same answers from every backend. */
export function describeSearchAndOutputConformance(current: CurrentFixture): void {
  describe("thread search", () => {
    it("finds threads by id prefix and workflow however they were made, newest first, with the total", async () => {
      const { refs } = current().store;
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1, "01JA"), workflow: "review-loop" }));
      await refs.createThreads([
        sampleThreadRecord({ id: sampleThreadId(2, "01JB"), workflow: "triage" }),
        sampleThreadRecord({ id: sampleThreadId(3, "01JC"), workflow: "review-loop" }),
      ]);
      const ids = async (text: string, extra: object = {}) =>
        (await refs.searchThreads({ text, ...extra })).threads.map((thread) => thread.id);
      expect(await ids("review")).toEqual([sampleThreadId(3, "01JC"), sampleThreadId(1, "01JA")]);
      expect(await ids("REVIEW-LOOP")).toEqual([sampleThreadId(3, "01JC"), sampleThreadId(1, "01JA")]);
      expect(await ids("01jb")).toEqual([sampleThreadId(2, "01JB")]);
      expect(await ids(sampleThreadId(1, "01JA"))).toEqual([sampleThreadId(1, "01JA")]);
      expect(await ids("loop", { limit: 1, offset: 1 })).toEqual([sampleThreadId(1, "01JA")]);
      expect(await refs.searchThreads({ text: "loop", limit: 1 })).toMatchObject({ total: 2, more: false });
      // Counting stops past offset + countUpTo: the total is then a lower bound, and `more` says so.
      expect(await refs.searchThreads({ text: "loop", limit: 1, countUpTo: 1 })).toMatchObject({
        total: 1,
        more: true,
      });
      expect(await refs.searchThreads({ text: "loop", offset: 1, countUpTo: 1 })).toMatchObject({
        total: 2,
        more: false,
      });
      await expect(refs.searchThreads({ text: "loop", countUpTo: 0 })).rejects.toThrow(InvalidRecordError);
      expect(await ids("nothing-like-it")).toEqual([]);
      expect(await ids("  -- ")).toEqual([]);
    });

    it("finds the words indexed for a thread, every query word as a word's start, with the list's filters", async () => {
      const { refs } = current().store;
      const first = sampleThreadRecord({ id: sampleThreadId(1), status: "ended" });
      const second = sampleThreadRecord({ id: sampleThreadId(2) });
      await refs.createThreads([first, second]);
      await refs.indexThreadText(first.id, ["Fix the flaky Parser test", "writer", '{"summary":"Überarbeitet"}']);
      await refs.indexThreadText(second.id, ["Write the parser docs", "reviewer"]);
      await refs.indexThreadText(second.id, ["approved true"]);
      const ids = async (text: string, extra: object = {}) =>
        (await refs.searchThreads({ text, ...extra })).threads.map((thread) => thread.id);
      expect(await ids("pars")).toEqual([second.id, first.id]);
      expect(await ids("parser flaky")).toEqual([first.id]);
      expect(await ids("überarb")).toEqual([first.id]);
      expect(await ids("approved review")).toEqual([second.id]);
      expect(await ids("arser")).toEqual([]);
      expect(await ids("parser", { status: "ended" })).toEqual([first.id]);
      const held = await refs.listThreadWords(second.id);
      expect(held).toEqual(
        expect.arrayContaining(["write", "parser", "docs", "reviewer", "approved", "true", "review", "loop"]),
      );
      expect(held).toContain(second.id.toLowerCase());
      expect(await refs.listThreadWords(sampleThreadId(9))).toEqual([]);
      expect(await ids("parser", { workflow: "other" })).toEqual([]);
      await expect(refs.searchThreads({ text: "parser", limit: -1 })).rejects.toThrow(InvalidRecordError);
    });

    it("forgets a deleted thread's words, and indexes nothing for a thread that does not exist", async () => {
      const { refs } = current().store;
      const record = sampleThreadRecord();
      await refs.createThread(record);
      await refs.indexThreadText(record.id, ["zebra"]);
      expect((await refs.searchThreads({ text: "zebra" })).total).toBe(1);
      expect(await refs.deleteThread(record.id, record.head, new Date(AT))).toBe(true);
      expect((await refs.searchThreads({ text: "zebra" })).total).toBe(0);
      await refs.indexThreadText(sampleThreadId(9), ["zebra"]);
      expect((await refs.searchThreads({ text: "zebra" })).total).toBe(0);
    });
  });

  describe("step output", () => {
    it("keeps a thread's chunks by step and seq, reads them after a place, and ignores a chunk stored twice", async () => {
      const { refs } = current().store;
      const record = sampleThreadRecord();
      await refs.createThread(record);
      await refs.appendStepOutput(record.id, [chunk(1, 1, "one\n"), chunk(1, 2, "warn\n", "stderr")]);
      await refs.appendStepOutput(record.id, [chunk(2, 1, "two\n"), chunk(1, 2, "again\n")]);
      await refs.appendStepOutput(record.id, []);
      expect(await refs.readStepOutput(record.id)).toEqual([
        chunk(1, 1, "one\n"),
        chunk(1, 2, "warn\n", "stderr"),
        chunk(2, 1, "two\n"),
      ]);
      expect(await refs.readStepOutput(record.id, { step: 1 })).toHaveLength(2);
      expect(await refs.readStepOutput(record.id, { after: { step: 1, seq: 1 } })).toEqual([
        chunk(1, 2, "warn\n", "stderr"),
        chunk(2, 1, "two\n"),
      ]);
      expect(await refs.readStepOutput(record.id, { after: { step: 1, seq: 2 }, limit: 5 })).toEqual([
        chunk(2, 1, "two\n"),
      ]);
      expect(await refs.readStepOutput(record.id, { limit: 1 })).toEqual([chunk(1, 1, "one\n")]);
      expect(await refs.readStepOutput(sampleThreadId(5))).toEqual([]);
      await expect(refs.readStepOutput(record.id, { step: -1 })).rejects.toThrow(InvalidRecordError);
      expect(await refs.deleteThread(record.id, record.head, new Date(AT))).toBe(true);
      expect(await refs.readStepOutput(record.id)).toEqual([]);
    });

    it("moves the change signal when another process's step writes output", async () => {
      const fixture = current();
      const other = fixture.openAgain === undefined ? fixture.store : await fixture.openAgain();
      try {
        const record = sampleThreadRecord();
        await fixture.store.refs.createThread(record);
        let signals = 0;
        const stop = await fixture.store.refs.watchChanges(
          () => {
            signals++;
          },
          { pollMs: 20 },
        );
        try {
          await other.refs.appendStepOutput(record.id, [chunk(1, 1, "live\n")]);
          await waitFor(() => signals > 0, { what: "a change signal after appendStepOutput", timeoutMs: 5_000 });
          expect(await fixture.store.refs.readStepOutput(record.id)).toEqual([chunk(1, 1, "live\n")]);
        } finally {
          await stop();
        }
      } finally {
        if (other !== fixture.store) await other.close();
      }
    });
  });
}
