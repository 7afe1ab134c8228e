import { describe, expect, it } from "bun:test";
import { createMemoryRefStore, type RefStore } from "@uwf/cas";
import { sampleThreadRecord, waitFor } from "@uwf/cas/test";
import { openStepOutputSpool } from "./step-output-spool.ts";

const now = () => new Date("2026-02-03T04:05:06.000Z");

async function withThread(): Promise<{ refs: RefStore; thread: string }> {
  const refs = createMemoryRefStore();
  const record = sampleThreadRecord();
  await refs.createThread(record);
  return { refs, thread: record.id };
}

describe("openStepOutputSpool", () => {
  it("stores what the agent prints, in order, by the time it closes", async () => {
    const { refs, thread } = await withThread();
    const spool = await openStepOutputSpool({ refs, thread, step: 2, now });
    spool.write("stdout", "one\n");
    spool.write("stderr", "warn\n");
    spool.write("stdout", "");
    spool.write("stdout", "two\n");
    await spool.close();
    const chunks = await refs.readStepOutput(thread);
    expect(chunks.map(({ step, seq, stream, text }) => ({ step, seq, stream, text }))).toEqual([
      { step: 2, seq: 1, stream: "stdout", text: "one\n" },
      { step: 2, seq: 2, stream: "stderr", text: "warn\n" },
      { step: 2, seq: 3, stream: "stdout", text: "two\n" },
    ]);
    expect(chunks[0]?.at).toBe("2026-02-03T04:05:06.000Z");
  });

  it("writes while the agent runs, not only at the end", async () => {
    const { refs, thread } = await withThread();
    const spool = await openStepOutputSpool({ refs, thread, step: 1, now, flushMs: 5 });
    spool.write("stdout", "early\n");
    await waitFor(async () => (await refs.readStepOutput(thread)).length > 0, {
      what: "a write before the spool closed",
      timeoutMs: 5_000,
    });
    expect((await refs.readStepOutput(thread)).map((chunk) => chunk.text)).toEqual(["early\n"]);
    await spool.close();
  });

  it("keeps a run's first capBytes, then notes the cut and drops the rest", async () => {
    const { refs, thread } = await withThread();
    const spool = await openStepOutputSpool({ refs, thread, step: 1, now, capBytes: 10 });
    spool.write("stdout", "123456");
    spool.write("stdout", "789012345");
    spool.write("stderr", "more");
    await spool.close();
    const chunks = await refs.readStepOutput(thread);
    expect(chunks.map((chunk) => [chunk.stream, chunk.text])).toEqual([
      ["stdout", "123456"],
      ["stdout", "7890"],
      ["uwf", "[uwf: output truncated: this run's first 10 bytes are kept]\n"],
    ]);
  });

  it("continues the numbering of an earlier run of the same step", async () => {
    const { refs, thread } = await withThread();
    const first = await openStepOutputSpool({ refs, thread, step: 3, now });
    first.write("stdout", "first run\n");
    await first.close();
    const second = await openStepOutputSpool({ refs, thread, step: 3, now });
    second.write("stdout", "second run\n");
    await second.close();
    expect((await refs.readStepOutput(thread, { step: 3 })).map((chunk) => [chunk.seq, chunk.text])).toEqual([
      [1, "first run\n"],
      [2, "second run\n"],
    ]);
  });

  it("loses only live output when the store refuses it", async () => {
    const { refs, thread } = await withThread();
    const failing = {
      ...refs,
      appendStepOutput: async () => {
        throw new Error("store out of reach");
      },
    };
    const spool = await openStepOutputSpool({ refs: failing, thread, step: 1, now });
    spool.write("stdout", "lost\n");
    await spool.close();
    expect(await refs.readStepOutput(thread)).toEqual([]);
  });
});
