import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildContinuationPrompt } from "@uwf/agent-kit";
import { readPromptText } from "@uwf/cas";
import type { PromptNode, ThreadStepNode, WorkflowNode } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { loadHistory } from "../history/load-history.ts";
import { readChain } from "../history/read-chain.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { buildWholeThreadPrompt, HISTORY_RUN_LENGTHS, historySegments } from "./build-whole-thread-prompt.ts";
import { stepUntilDone } from "./step-until-done.ts";

const LOOP = `name: loop
description: One role that works until it says it is done
roles:
  worker:
    goal: You carry the task forward.
    frontmatter:
      type: object
      properties:
        n: { type: integer }
        done: { type: boolean }
      required: [n, done]
conditions:
  finished:
    description: The worker is done
    expression: "steps[-1].output.done = true"
graph:
  $START:
    - { role: worker, prompt: "Start." }
  worker:
    - { role: $END, condition: finished, prompt: "Finished." }
    - { role: worker, prompt: "Continue after step {{ n }}." }
`;

/**
 * Runs LOOP to its end with `bodies` (one a step) and checks each step's stored prompt reads back as the
 * prompt built from scratch from the history before it; gives the stored prompt nodes, in step order.
 */
async function storedPromptsOfLoop(
  kit: EngineTestKit,
  task: string,
  bodies: string[],
): Promise<Array<Partial<PromptNode>>> {
  const workflowFile = join(kit.home, "loop.yaml");
  writeFileSync(workflowFile, LOOP);
  const steps = bodies.length;
  const agent = kit.scriptedAgent(
    bodies.map((body, index) => ({ role: "worker", output: { n: index + 1, done: index + 1 === steps }, body })),
  );
  const record = await kit.startThread({ workflow: workflowFile, prompt: task });
  const done = await stepUntilDone({ ...kit.stepOptions(record.id, { defaultAgent: agent }), maxSteps: steps });
  expect(done.record.status).toBe("ended");

  const { store } = kit;
  const workflow = (await store.objects.get(record.workflowAddress)) as WorkflowNode;
  const addresses = await kit.stepAddresses(done.record);
  expect(addresses).toHaveLength(steps);
  const stored: Array<Partial<PromptNode>> = [];
  for (const [index, address] of addresses.entries()) {
    const node = (await store.objects.get(address)) as ThreadStepNode;
    const run = await kit.runNode(node.run);
    const before = index === 0 ? record.start : (addresses[index - 1] as string);
    const history = await loadHistory(store.objects, await readChain(store, before));
    const expected = buildContinuationPrompt({
      workflow,
      roleName: "worker",
      task,
      history,
      edgePrompt: node.edgePrompt,
    });
    expect(await readPromptText(store.objects, run.prompt)).toBe(expected);
    stored.push((await store.objects.get(run.prompt)) as Partial<PromptNode>);
  }
  return stored;
}

describe("historySegments", () => {
  it("groups aligned runs of 32, else of 8, shown alike; the rest one entry a segment", () => {
    // 61 entries: the first 40 left out, the 41st cut to 1,200 characters, the last 20 whole.
    const shown = { count: 61, full: 41, cut: 1_200 };
    const spans = (runLengths?: readonly number[]) =>
      historySegments(shown, runLengths).map(({ start, end }) => (end - start === 1 ? `${start}` : `${start}-${end}`));
    // Steps 33–40 are a run of 8; 41 is cut; 42–48 are not a whole aligned run of 8; 49–56 are.
    expect(spans()).toEqual([
      "0-32",
      "32-40",
      "40",
      "41",
      "42",
      "43",
      "44",
      "45",
      "46",
      "47",
      "48-56",
      "56",
      "57",
      "58",
      "59",
      "60",
    ]);
    // Prompts stored before the runs of 8 grouped only runs of 32: recognized by the same function.
    expect(spans([32])).toHaveLength(1 + 29);
    expect(spans([])).toHaveLength(61);
  });
});

describe("buildWholeThreadPrompt", () => {
  it("gives every step the prompt built from scratch while the bodies shown whole, cut and left out move on", async () => {
    const kit = createEngineTestKit();
    try {
      // Bodies of 3,000 to 8,000 characters: the 20,000-character quota holds a few, so at each step
      // one more is cut or left out, and the previous prompt's entries are reused only where they agree.
      const bodies = Array.from(
        { length: 16 },
        (_, index) => `Step ${index + 1}: ${"work ".repeat(600 + ((index * 437) % 1000))}`,
      );
      const shapes: string[] = [];
      for (const stored of await storedPromptsOfLoop(kit, "Do it in slices.", bodies)) {
        if (stored.history !== undefined) shapes.push(`${stored.history.full}/${stored.history.cut ?? "-"}`);
      }
      // Bodies were cut and left out as the thread grew (so entries were formatted again, not only reused).
      expect(shapes.some((shape) => !shape.startsWith("0/"))).toBe(true);
      expect(shapes.some((shape) => !shape.endsWith("/-"))).toBe(true);
    } finally {
      kit.cleanup();
    }
  });
  it("stores aligned runs of entries shown alike as one node each, and the prompt's bytes stay those built from scratch", async () => {
    const kit = createEngineTestKit();
    try {
      // 72 short bodies (the first two runs fill, shown whole), then bodies of 4,000 characters that push
      // the short ones out of the 20,000-character quota: the runs are then left out, and stay grouped.
      const steps = 84;
      const bodies = Array.from({ length: steps }, (_, index) =>
        index < 72 ? `Short step ${index + 1}.` : `Long step ${index + 1}: ${"x".repeat(4_000)}`,
      );
      const references: number[] = [];
      const runTexts = new Set<string>();
      const stored = await storedPromptsOfLoop(kit, "Count.", bodies);
      for (const prompt of stored) {
        const refs = (prompt.parts ?? []).flatMap((part) => ("ref" in part ? [part.ref] : []));
        references.push(refs.length);
        for (const ref of refs) {
          const text = ((await kit.store.objects.get(ref)) as { text: string }).text;
          const entries = text.split("\n\n## Step ").length - 1;
          if (HISTORY_RUN_LENGTHS.includes(entries))
            runTexts.add(text.includes("Body: left out") ? "left out" : "whole");
        }
      }
      // Step 9 sees 8 entries, one run of 8; step 33 sees 32, one run of 32: one reference each. Step 84 sees
      // 83: two runs of 32 and one of 8 left out (steps 1–72), then steps 73–80 one by one (left out, cut and
      // whole: not shown alike), and the 3 newest.
      expect(references[8]).toBe(1);
      expect(references[32]).toBe(1);
      expect(references.at(-1)).toBe(2 + 1 + 8 + 3);
      // It keeps the body lengths a later prompt needs: from step 79's, the one it cut, on (5, not 83).
      const last = stored.at(-1)?.history;
      expect(last).toMatchObject({ from: 78, full: 79, cut: 20_000 - 4 * 4_014 });
      expect(last?.bodies).toHaveLength(83 - 78);
      // While every body fits, every length is kept, and the node has no `from`.
      expect(stored[40]?.history).not.toHaveProperty("from");
      expect(stored[40]?.history?.bodies).toHaveLength(40);
      expect([...runTexts].sort()).toEqual(["left out", "whole"]);
    } finally {
      kit.cleanup();
    }
  });
  it("reads the steps since the role's last prompt, not every body, while every body fits", async () => {
    const kit = createEngineTestKit();
    try {
      const steps = 40;
      const bodies = Array.from({ length: steps }, (_, index) => `Short step ${index + 1}.`);
      await storedPromptsOfLoop(kit, "Count.", bodies);
      const [record] = (await kit.store.refs.listThreads({})).threads;
      if (record === undefined) throw new Error("no thread");
      let reads = 0;
      const objects = new Proxy(kit.store.objects, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (property !== "get" || typeof value !== "function") return value;
          return (address: string) => {
            reads++;
            return value.call(target, address);
          };
        },
      });
      const history = new ThreadHistory(objects, await readChain(kit.store, record.head));
      await history.step(steps - 1);
      reads = 0;
      await buildWholeThreadPrompt({
        history,
        workflow: (await kit.store.objects.get(record.workflowAddress)) as WorkflowNode,
        workflowAddress: record.workflowAddress,
        roleName: "worker",
        task: "Count.",
        edgePrompt: "Go on.",
      });
      // The previous prompt's run and node, its run of 32 and its 7 newest entries (which make a run of 8
      // with the last step's, formatted from the step already read): not the 40 bodies again.
      expect(reads).toBeLessThanOrEqual(10);
    } finally {
      kit.cleanup();
    }
  });
});
