import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildContinuationPrompt } from "@uwf/agent-kit";
import { readPromptText } from "@uwf/cas";
import type { PromptNode, ThreadStepNode, WorkflowNode } from "@uwf/protocol";
import { createEngineTestKit } from "../../test/engine-test-kit.ts";
import { loadHistory } from "../history/load-history.ts";
import { readChain } from "../history/read-chain.ts";
import { HISTORY_RUN_LENGTH } from "./build-whole-thread-prompt.ts";
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

describe("buildWholeThreadPrompt", () => {
  it("gives every step the prompt built from scratch while the bodies shown whole, cut and left out move on", async () => {
    const kit = createEngineTestKit();
    try {
      const workflowFile = join(kit.home, "loop.yaml");
      writeFileSync(workflowFile, LOOP);
      // Bodies of 3,000 to 8,000 characters: the 20,000-character quota holds a few, so at each step
      // one more is cut or left out, and the previous prompt's entries are reused only where they agree.
      const steps = 16;
      const agent = kit.scriptedAgent(
        Array.from({ length: steps }, (_, index) => ({
          role: "worker",
          output: { n: index + 1, done: index + 1 === steps },
          body: `Step ${index + 1}: ${"work ".repeat(600 + ((index * 437) % 1000))}`,
        })),
      );
      const record = await kit.startThread({ workflow: workflowFile, prompt: "Do it in slices." });
      const done = await stepUntilDone({ ...kit.stepOptions(record.id, { defaultAgent: agent }), maxSteps: steps });
      expect(done.record.status).toBe("ended");

      const { store } = kit;
      const workflow = (await store.objects.get(record.workflowAddress)) as WorkflowNode;
      const addresses = await kit.stepAddresses(done.record);
      expect(addresses).toHaveLength(steps);
      const shapes: string[] = [];
      for (const [index, address] of addresses.entries()) {
        const node = (await store.objects.get(address)) as ThreadStepNode;
        const run = await kit.runNode(node.run);
        const before = index === 0 ? record.start : (addresses[index - 1] as string);
        const history = await loadHistory(store.objects, await readChain(store, before));
        const expected = buildContinuationPrompt({
          workflow,
          roleName: "worker",
          task: "Do it in slices.",
          history,
          edgePrompt: node.edgePrompt,
        });
        expect(await readPromptText(store.objects, run.prompt)).toBe(expected);
        const stored = (await store.objects.get(run.prompt)) as Partial<PromptNode>;
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
      const workflowFile = join(kit.home, "loop.yaml");
      writeFileSync(workflowFile, LOOP);
      // 72 short bodies (the first two runs fill, shown whole), then bodies of 4,000 characters that push
      // the short ones out of the 20,000-character quota: the runs are then left out, and stay grouped.
      const steps = 84;
      const agent = kit.scriptedAgent(
        Array.from({ length: steps }, (_, index) => ({
          role: "worker",
          output: { n: index + 1, done: index + 1 === steps },
          body: index < 72 ? `Short step ${index + 1}.` : `Long step ${index + 1}: ${"x".repeat(4_000)}`,
        })),
      );
      const record = await kit.startThread({ workflow: workflowFile, prompt: "Count." });
      const done = await stepUntilDone({ ...kit.stepOptions(record.id, { defaultAgent: agent }), maxSteps: steps });
      expect(done.record.status).toBe("ended");

      const { store } = kit;
      const workflow = (await store.objects.get(record.workflowAddress)) as WorkflowNode;
      const addresses = await kit.stepAddresses(done.record);
      const references: number[] = [];
      const runTexts = new Set<string>();
      for (const [index, address] of addresses.entries()) {
        const node = (await store.objects.get(address)) as ThreadStepNode;
        const run = await kit.runNode(node.run);
        const before = index === 0 ? record.start : (addresses[index - 1] as string);
        const history = await loadHistory(store.objects, await readChain(store, before));
        const expected = buildContinuationPrompt({
          workflow,
          roleName: "worker",
          task: "Count.",
          history,
          edgePrompt: node.edgePrompt,
        });
        expect(await readPromptText(store.objects, run.prompt)).toBe(expected);
        const stored = (await store.objects.get(run.prompt)) as Partial<PromptNode>;
        const refs = (stored.parts ?? []).flatMap((part) => ("ref" in part ? [part.ref] : []));
        references.push(refs.length);
        for (const ref of refs) {
          const text = ((await store.objects.get(ref)) as { text: string }).text;
          const entries = text.split("\n\n## Step ").length - 1;
          if (entries === HISTORY_RUN_LENGTH) runTexts.add(text.includes("Body: left out") ? "left out" : "whole");
        }
      }
      // Step 33 sees 32 entries: one run, one reference. Step 84 sees 83: two runs left out, then 19 entries.
      expect(references[32]).toBe(1);
      expect(references.at(-1)).toBe(2 + (steps - 1 - 2 * HISTORY_RUN_LENGTH));
      expect([...runTexts].sort()).toEqual(["left out", "whole"]);
    } finally {
      kit.cleanup();
    }
  });
});
