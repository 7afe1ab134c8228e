import { describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMemoryStore } from "@uwf/cas";
import { type AgentRunNode, defaultConfig, type TextNode, type ThreadStepNode } from "@uwf/protocol";
import { ulid } from "ulid";
import { resumeThread, startThread, stepUntilDone } from "./index.ts";

const FIXTURES = resolve(import.meta.dir, "../test/fixtures");

describe("what an agent that keeps no conversation sees", () => {
  it("a stateless role's third visit sees the plan and the human's answer to a suspension", async () => {
    const store = createMemoryStore();
    const home = mkdtempSync(join(tmpdir(), "uwf-engine-home-"));
    try {
      const common = { store, config: defaultConfig(), home, cwd: FIXTURES, now: () => new Date() };
      const record = await startThread({
        ...common,
        workflowReference: join(FIXTURES, "plan-build-review.yaml"),
        prompt: "Write the README section",
        newId: ulid,
      });
      const step = {
        ...common,
        threadId: record.id,
        defaultAgent: `scripted:${join(FIXTURES, "plan-build-review.scenario.yaml")}`,
        signal: new AbortController().signal,
        host: "engine-test",
        onProgress: () => {},
        onStderr: () => {},
      };
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
      const prompt = ((await store.objects.get(run.prompt)) as TextNode).text;
      expect(prompt).toContain("6 steps so far, oldest first. You acted at steps 3 and 5.");
      expect(prompt).toContain("plan: a README section for the audience");
      expect(prompt).toContain("PLAN-BODY step by step.");
      expect(prompt).toContain("The user's answer:\n> Frontend developers");
      expect(prompt).toContain("reason: Who is the audience?");
      expect(prompt).toContain("> Address the review: too long");
      expect(prompt).not.toContain("left out here");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
