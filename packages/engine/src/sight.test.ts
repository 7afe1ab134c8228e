import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { readPromptText } from "@uwf/cas";
import type { AgentRunNode, ThreadStepNode } from "@uwf/protocol";
import { createEngineTestKit, FIXTURES } from "../test/engine-test-kit.ts";
import { resumeThread, stepUntilDone } from "./index.ts";

describe("what an agent that keeps no conversation sees", () => {
  it("a stateless role's third visit sees the plan and the human's answer to a suspension", async () => {
    const kit = createEngineTestKit();
    const { store } = kit;
    try {
      const record = await kit.startThread({
        workflow: join(FIXTURES, "plan-build-review.yaml"),
        prompt: "Write the README section",
      });
      const step = kit.stepOptions(record.id, {
        defaultAgent: `scripted:${join(FIXTURES, "plan-build-review.scenario.yaml")}`,
      });
      const suspended = await stepUntilDone({ ...step, maxSteps: 10 });
      expect(suspended.record.status).toBe("suspended");
      await resumeThread({ ...step, answer: "Frontend developers" });
      const done = await stepUntilDone({ ...step, maxSteps: 10 });
      expect(done.record.status).toBe("ended");

      // Step 7 is the implementer's third visit; a scripted agent keeps no conversation.
      let head = (await store.refs.getThread(record.id))?.head ?? "";
      const nodes: ThreadStepNode[] = [];
      while (true) {
        const node = (await store.objects.get(head)) as ThreadStepNode | { type: string };
        if (node.type !== "thread-step/1") break;
        nodes.unshift(node as ThreadStepNode);
        head = (node as ThreadStepNode).prev ?? "";
        if (head === "") break;
      }
      expect(nodes.map((node) => node.role)).toEqual([
        "planner",
        "planner",
        "implementer",
        "reviewer",
        "implementer",
        "reviewer",
        "implementer",
        "reviewer",
      ]);
      const thirdVisit = nodes[6] as ThreadStepNode;
      const run = (await store.objects.get(thirdVisit.run)) as AgentRunNode;
      const prompt = (await readPromptText(store.objects, run.prompt)) ?? "";
      expect(prompt).toContain("6 steps so far, oldest first. You acted at steps 3 and 5.");
      expect(prompt).toContain("plan: a README section for the audience");
      expect(prompt).toContain("PLAN-BODY step by step.");
      expect(prompt).toContain("The user's answer:\n> Frontend developers");
      expect(prompt).toContain("reason: Who is the audience?");
      expect(prompt).toContain("> Address the review: too long");
      expect(prompt).not.toContain("left out here");
    } finally {
      kit.cleanup();
    }
  });
});
