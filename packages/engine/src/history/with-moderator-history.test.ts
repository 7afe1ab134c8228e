import { describe, expect, it } from "bun:test";
import { createMemoryStore, type ObjectStore, type RefStore } from "@uwf/cas";
import type { Address, ThreadStartNode, ThreadStepNode } from "@uwf/protocol";
import { compileWorkflow, type ModeratorHistory, parseWorkflowSource, pickNextRole } from "@uwf/workflow";
import { loadHistory } from "./load-history.ts";
import { indexOfChain, readChain } from "./read-chain.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withModeratorHistory } from "./with-moderator-history.ts";

const STEPS = [
  { role: "writer", agent: "alice", output: { n: 1 }, body: "the needle is here" },
  { role: "reviewer", agent: "bob", output: { n: 2, approved: false }, body: "" },
  { role: "writer", agent: "alice", output: { n: 3 }, body: "42" },
  { role: "reviewer", agent: "carol", output: { n: 4, approved: false }, body: "last" },
];

/** A thread of STEPS in a fresh memory store, and the store's reads counted. */
async function thread(): Promise<{ objects: ObjectStore; refs: RefStore; head: Address; reads: () => number }> {
  const { objects, refs } = createMemoryStore();
  const workflow = await objects.put({ type: "workflow/1", name: "probe" });
  const start = await objects.put({
    type: "thread-start/1",
    workflow,
    prompt: "Probe.",
    cwd: "/work",
  } satisfies ThreadStartNode);
  let head = start;
  let prev: Address | null = null;
  for (const [index, step] of STEPS.entries()) {
    const time = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
    const prompt = await objects.put({ type: "text/1", text: "prompt" });
    head = await objects.put({
      type: "thread-step/1",
      start,
      prev,
      role: step.role,
      edgePrompt: "Go.",
      output: await objects.put({ type: "output/1", fields: step.output }),
      body: await objects.put({ type: "text/1", text: step.body }),
      run: await objects.put({ type: "agent-run/1", agent: step.agent, prompt, usage: null }),
      startedAt: time,
      completedAt: time,
    } satisfies ThreadStepNode);
    prev = head;
  }
  let count = 0;
  const counting: ObjectStore = {
    ...objects,
    get: (address) => {
      count++;
      return objects.get(address);
    },
  };
  return { objects: counting, refs, head, reads: () => count };
}

/** A workflow whose last role ends the thread when `expression` holds and goes on otherwise. */
function probe(expression: string) {
  return compileWorkflow(
    parseWorkflowSource(
      `
name: probe
roles:
  writer: { goal: Write., frontmatter: { type: object, properties: { n: { type: integer } } } }
  reviewer: { goal: Review., frontmatter: { type: object, properties: { n: { type: integer }, approved: { type: boolean } } } }
conditions:
  probe: { expression: ${JSON.stringify(expression)} }
graph:
  $START: [ { role: writer, prompt: "Go." } ]
  writer: [ { role: reviewer, prompt: "Review." } ]
  reviewer:
    - { role: $END, condition: probe, prompt: "Held." }
    - { role: writer, prompt: "Again after {{ _body }}." }
`,
      { file: "probe.yaml" },
    ).workflow,
  );
}

type Outcome = { role: string; prompt: string } | { error: string };

async function outcome(decide: () => Promise<{ role: string; prompt: string }>): Promise<Outcome> {
  try {
    const { role, prompt } = await decide();
    return { role, prompt };
  } catch (error) {
    return { error: String((error as Error).message) };
  }
}

const record = { id: "01J0000000000000000000THRD", workflow: "probe" };

/** What the moderator decides on the thread read whole, as the engine used to read it. */
async function decideOnWholeHistory(expression: string): Promise<Outcome> {
  const { objects, refs, head } = await thread();
  const chain = await readChain({ objects, refs }, head);
  const steps = await loadHistory(objects, chain);
  const history: ModeratorHistory = {
    start: { prompt: chain.start.prompt, workflow: "probe", cwd: chain.start.cwd },
    thread: { id: record.id },
    steps: steps.map(({ role, output, body, agent, startedAt, completedAt }) => ({
      role,
      output,
      body,
      agent,
      startedAt,
      completedAt,
    })),
  };
  return outcome(() => pickNextRole(probe(expression), history, { mode: "continue" }));
}

/**
 * The same, through withModeratorHistory on a history of which only the newest step was read; and
 * the reads it made. Indexed: the chain comes from the thread's chain index, so the older steps'
 * nodes (their times) are unread too.
 */
async function decideLazily(expression: string, indexed = false): Promise<{ outcome: Outcome; reads: number }> {
  const { objects, refs, head, reads } = await thread();
  const threadRef = { id: record.id, stepCount: STEPS.length };
  if (indexed) await refs.rememberChainIndex(record.id, indexOfChain(await readChain({ objects, refs }, head)));
  const chain = await readChain({ objects, refs }, head, indexed ? { thread: threadRef } : {});
  if (indexed) expect(Object.keys(chain.nodes)).toEqual([String(STEPS.length - 1)]);
  const history = new ThreadHistory(objects, chain);
  await history.step(history.length - 1);
  const before = reads();
  const decided = await outcome(() =>
    withModeratorHistory({ record, start: chain.start, history }, (view) =>
      pickNextRole(probe(expression), view, { mode: "continue" }),
    ),
  );
  return { outcome: decided, reads: reads() - before };
}

describe("withModeratorHistory", () => {
  const expressions = [
    "steps[-1].output.approved = false",
    "$count(steps) = 4 and $count('writer') = 2",
    "steps[-2].output.n = 3",
    "$last('writer').n = 3",
    "$contains($string(steps), 'carol')",
    "$contains($string(steps[0]), 'needle')",
    "'body' in $keys(steps[1])",
    "steps[0] = steps[2]",
    "$count(steps[agent = 'alice']) = 2",
    "$sum(steps.$length(body)) > 20",
    "'bob' in **.agent",
    "$sift(steps[2], function($value, $key) { $key = 'body' }).body = '42'",
    "$number(steps[2].body) = 42",
    "$number(steps[0].body)",
    "steps[1].body",
    "steps[0].startedAt < steps[-1].completedAt",
    "$count(steps[completedAt > '2026-01-01T00:01:30Z']) = 2",
  ];
  for (const expression of expressions) {
    it(`decides as on the whole history: ${expression}`, async () => {
      const whole = await decideOnWholeHistory(expression);
      expect((await decideLazily(expression)).outcome).toEqual(whole);
      expect((await decideLazily(expression, true)).outcome).toEqual(whole);
    });
  }

  it("reads an older step's node only for a condition on it", async () => {
    expect(await decideLazily("steps[-1].output.approved = false", true)).toMatchObject({ reads: 0 });
    // The first step's node, output, body and agent run.
    expect(await decideLazily("steps[0].startedAt < steps[-1].completedAt", true)).toMatchObject({ reads: 4 });
  });

  it("shares what one run read with the next run on the same history", async () => {
    const { objects, refs, head, reads } = await thread();
    const chain = await readChain({ objects, refs }, head);
    const history = new ThreadHistory(objects, chain);
    await history.step(history.length - 1);
    const decide = () =>
      withModeratorHistory({ record, start: chain.start, history }, (view) =>
        pickNextRole(probe("steps[-2].output.n = 3"), view, { mode: "continue" }),
      );
    expect(await outcome(decide)).toEqual({ role: "$END", prompt: "Held." });
    const before = reads();
    expect(await outcome(decide)).toEqual({ role: "$END", prompt: "Held." });
    expect(reads()).toBe(before);
  });

  it("reads no older step for a condition on the newest one", async () => {
    const lazily = await decideLazily("steps[-1].output.approved = false");
    expect(lazily).toEqual({ outcome: { role: "$END", prompt: "Held." }, reads: 0 });
  });

  it("reads the one older step a condition touches", async () => {
    expect((await decideLazily("steps[-2].output.n = 3")).reads).toBe(3);
  });

  it("reads every step for a condition that touches more than one older step", async () => {
    // The three older steps' output, body and agent run; the newest was read before.
    expect((await decideLazily("$count(steps[agent = 'alice']) = 2")).reads).toBe(3 * 3);
  });
});
