import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readChain } from "@uwf/engine";
import type { EvalAssertion, EvalSample, EvalThreadView, ThreadRecord } from "@uwf/protocol";
import { createEvalTestKit, type EvalTestKit, JUDGE_WORKFLOW } from "../../test/eval-test-kit.ts";
import { loadThreadViews } from "../view/load-thread-view.ts";
import { DEFAULT_JUDGE_PROMPT } from "./score-judge.ts";
import { scoreThreads } from "./score-threads.ts";

let kit: EvalTestKit;
let judged: ThreadRecord;
let views: EvalThreadView[];

beforeAll(async () => {
  kit = createEvalTestKit();
  judged = await kit.runThread(
    [{ role: "worker", output: { $status: "approved", summary: "added the test" }, body: "BODY-OF-THE-STEP" }],
    { prompt: "Add a test for the parser", inputs: { pr: 12 } },
  );
  views = await loadThreadViews(kit.store, [judged], { bodies: true });
});
afterAll(() => kit.cleanup());

async function judge(assertion: Omit<Extract<EvalAssertion, { kind: "judge" }>, "kind" | "name">): Promise<EvalSample> {
  const [sample] = await scoreThreads({
    views,
    assertions: [{ kind: "judge", name: "quality", ...assertion }],
    cwd: process.cwd(),
    judge: kit.judgeContext(),
  });
  if (sample === undefined) throw new Error("no sample");
  return sample;
}

async function judgeThreads(): Promise<ThreadRecord[]> {
  return (await kit.store.refs.listThreads({ workflow: "judge" })).threads;
}

describe("a judge", () => {
  it("runs an ordinary thread of its workflow on the transcript and reads its verdict", async () => {
    const agent = kit.scriptedAgent([{ role: "judge", output: { pass: true, score: 0.9, reason: "tested" } }]);
    const sample = await judge({ workflow: JUDGE_WORKFLOW, agent });
    const [thread] = await judgeThreads();
    if (thread === undefined) throw new Error("no judging thread");
    expect(thread.status).toBe("ended");
    expect(sample.scores[0]).toEqual({
      assertion: "quality",
      verdict: "passed",
      score: 0.9,
      reason: "tested",
      error: null,
      judge: { thread: thread.id, head: thread.head },
    });
    expect(sample.verdict).toBe("passed");
    // Its start: the default instruction, then the transcript (task, inputs, steps with fields and bodies).
    const { start } = await readChain(kit.store, thread.head);
    expect(start.inputs).toEqual({ thread: judged.id, head: judged.head, agent });
    expect(start.prompt).toStartWith(DEFAULT_JUDGE_PROMPT);
    for (const part of ["Add a test for the parser", "pr: 12", "$status: approved", "BODY-OF-THE-STEP", judged.id]) {
      expect(start.prompt).toContain(part);
    }
  });

  it("reads the verdict again from the thread that gave it, running nothing, on a second call", async () => {
    const agent = kit.scriptedAgent([{ role: "judge", output: { pass: false, reason: "no test" } }]);
    const first = await judge({ workflow: JUDGE_WORKFLOW, agent, prompt: "Is there a test?" });
    const before = await judgeThreads();
    const again = await judge({ workflow: JUDGE_WORKFLOW, agent, prompt: "Is there a test?" });
    expect(await judgeThreads()).toEqual(before);
    expect(again.scores).toEqual(first.scores);
    expect(first.scores[0]).toMatchObject({ verdict: "failed", score: 0, reason: "no test" });
    // Another prompt is another judge: a new thread.
    await judge({ workflow: JUDGE_WORKFLOW, agent, prompt: "Is there a test, really?" });
    expect((await judgeThreads()).length).toBe(before.length + 1);
  });

  it("runs with the caller's default agent when the judge names none, and keeps it out of the inputs", async () => {
    const agent = kit.scriptedAgent([{ role: "judge", output: { pass: true, reason: "by default" } }]);
    const [sample] = await scoreThreads({
      views,
      assertions: [{ kind: "judge", name: "quality", workflow: JUDGE_WORKFLOW, prompt: "Default agent." }],
      cwd: process.cwd(),
      judge: kit.judgeContext(agent),
    });
    expect(sample?.scores[0]).toMatchObject({ verdict: "passed", reason: "by default" });
    const judging = await kit.store.refs.getThread(sample?.scores[0]?.judge?.thread ?? "");
    const { start } = await readChain(kit.store, judging?.head ?? "");
    expect(start.inputs).toEqual({ thread: judged.id, head: judged.head });
  });

  it("reads the role it is told to, and otherwise the role whose reply ended the thread", async () => {
    const agent = kit.scriptedAgent([{ role: "judge", output: { pass: true } }]);
    const sample = await judge({ workflow: JUDGE_WORKFLOW, agent, role: "judge", prompt: "Role given." });
    expect(sample.scores[0]).toMatchObject({ verdict: "passed", score: 1, reason: null });
    const missing = await judge({ workflow: JUDGE_WORKFLOW, agent, role: "critic", prompt: "Role given." });
    expect(missing.scores[0]?.verdict).toBe("errored");
    expect(missing.scores[0]?.error).toContain("has no reply of the role critic");
  });

  it("errs, naming the thread, when the reply has no boolean pass", async () => {
    const agent = kit.scriptedAgent([{ role: "judge", output: { reason: "cannot tell" } }]);
    const sample = await judge({ workflow: JUDGE_WORKFLOW, agent });
    const score = sample.scores[0];
    expect(score?.verdict).toBe("errored");
    expect(score?.error).toContain(`the judging thread ${score?.judge?.thread}`);
    expect(score?.error).toContain("pass");
    expect(sample.verdict).toBe("errored");
  });

  it("errs when the judging thread suspends or fails", async () => {
    const asks = kit.scriptedAgent([{ role: "judge", output: { $status: "$SUSPEND", reason: "Which rubric?" } }]);
    const suspended = await judge({ workflow: JUDGE_WORKFLOW, agent: asks });
    expect(suspended.scores[0]?.error).toBe(
      `the judging thread ${suspended.scores[0]?.judge?.thread} did not end (suspended)`,
    );
    const wrongRole = kit.scriptedAgent([{ role: "somebody-else", output: { pass: true } }]);
    const failed = await judge({ workflow: JUDGE_WORKFLOW, agent: wrongRole });
    expect(failed.scores[0]?.verdict).toBe("errored");
    expect(failed.scores[0]?.error).toStartWith(`the judging thread ${failed.scores[0]?.judge?.thread} did not end (`);
  });

  it("refuses a judge whose workflow cannot be found before judging anything", async () => {
    await expect(judge({ workflow: "no-such-judge" })).rejects.toThrow("no-such-judge");
  });
});
