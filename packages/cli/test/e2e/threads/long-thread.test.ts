import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildContinuationPrompt, type HistoryEntry } from "@uwf/agent-kit";
import { openFileStore, readPromptText, type Store } from "@uwf/cas";
import { scriptedAgentRun } from "@uwf/cas/test";
import {
  type Address,
  type AgentRunNode,
  type OutputNode,
  startResultSchema,
  stepResultSchema,
  type TextNode,
  type ThreadStartNode,
  type ThreadStepNode,
  type WorkflowNode,
} from "@uwf/protocol";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const WORKFLOW = join(FIXTURES, "workflows/long-review.yaml");
/** Steps written straight into the store: enough bodies to overflow the prompt's 20,000-character quota. */
const STEPS = 30;

const temp = useTempHome();

interface WrittenStep {
  number: number;
  step: Address;
  output: Address;
  body: Address;
  run: Address;
}

/** Starts a long-review thread and appends `STEPS` writer/reviewer steps to it, as `uwf step` would have written them. */
async function startLongThread(options: { marked: boolean }): Promise<{ thread: string; steps: WrittenStep[] }> {
  const started = await temp.uwf(["start", WORKFLOW, "-p", "Write a short story about a lighthouse.", "--json"]);
  expect(started.exitCode).toBe(0);
  const { thread, head: start } = startResultSchema.parse(started.json());
  const store = await openFileStore(temp.home);
  try {
    const steps: WrittenStep[] = [];
    let prev: Address | null = null;
    for (let number = 1; number <= STEPS; number++) {
      const written = await writeStep(store, { number, start: start as Address, prev, marked: options.marked });
      steps.push(written);
      prev = written.step;
    }
    const updated = await store.refs.updateThread(thread, start as Address, {
      head: prev as Address,
      stepCount: STEPS,
      status: "active",
      next: "writer",
      updatedAt: new Date().toISOString(),
    });
    expect(updated).toBe(true);
    return { thread, steps };
  } finally {
    await store.close();
  }
}

async function writeStep(
  store: Store,
  input: { number: number; start: Address; prev: Address | null; marked: boolean },
): Promise<WrittenStep> {
  const { number } = input;
  const writer = number % 2 === 1;
  const fields = writer
    ? { summary: `draft ${number}` }
    : { approved: false, comments: `Tighten part ${number}, déjà vu.` };
  const edgePrompt =
    number === 1
      ? "Write the first draft."
      : writer
        ? `Address the review: Tighten part ${number - 1}, déjà vu.`
        : `Review this draft: draft ${number - 1}`;
  const startedAt = new Date(Date.UTC(2026, 0, 1, 0, number)).toISOString();
  const completedAt = new Date(Date.UTC(2026, 0, 1, 0, number, 30)).toISOString();
  const output = await store.objects.put({ type: "output/1", fields } satisfies OutputNode);
  const body = await store.objects.put({ type: "text/1", text: bodyOf(number, input.marked) } satisfies TextNode);
  const prompt = await store.objects.put({ type: "text/1", text: `prompt of step ${number}` } satisfies TextNode);
  const reply = await store.objects.put({ type: "text/1", text: `reply of step ${number}` } satisfies TextNode);
  const run = await store.objects.put(
    scriptedAgentRun({
      agent: writer ? (number % 4 === 1 ? "alice" : "carol") : "bob",
      cwd: temp.work,
      prompt,
      reply,
      startedAt,
      completedAt,
    }),
  );
  const step = await store.objects.put({
    type: "thread-step/1",
    start: input.start,
    prev: input.prev,
    role: writer ? "writer" : "reviewer",
    edgePrompt,
    output,
    body,
    run,
    startedAt,
    completedAt,
  } satisfies ThreadStepNode);
  return { number, step, output, body, run };
}

/** Bodies of uneven lengths, with non-ASCII text, one empty and one blank. */
function bodyOf(number: number, marked: boolean): string {
  if (number === 7) return "";
  if (number === 8) return "  \n";
  const sentence = number === 1 && marked ? "MARKER: the keeper's log. " : "Ça va, the lamp turns. ";
  return `## Step ${number}\n\n${sentence.repeat(20 + ((number * 37) % 70))}\n`;
}

/** Every step of the chain ending at `head`, read whole, oldest first: what the prompt used to be built from. */
async function readWholeHistory(
  store: Store,
  head: Address,
): Promise<{ start: ThreadStartNode; steps: HistoryEntry[] }> {
  const reversed: HistoryEntry[] = [];
  let node = (await store.objects.get(head)) as ThreadStepNode | ThreadStartNode;
  while (node.type === "thread-step/1") {
    const output = (await store.objects.get(node.output)) as OutputNode;
    const body = (await store.objects.get(node.body)) as TextNode;
    const run = (await store.objects.get(node.run)) as AgentRunNode;
    reversed.push({
      number: 0,
      role: node.role,
      agent: run.agent,
      output: output.fields,
      body: body.text,
      edgePrompt: node.edgePrompt,
      startedAt: node.startedAt,
      completedAt: node.completedAt,
    });
    node = (await store.objects.get(node.prev ?? node.start)) as ThreadStepNode | ThreadStartNode;
  }
  const steps = reversed.reverse().map((step, index) => ({ ...step, number: index + 1 }));
  return { start: node, steps };
}

/** The prompt the thread's newest step stored, and the one the prompt builder makes from the whole history before it. */
async function storedAndExpectedPrompt(thread: string): Promise<{ role: string; stored: string; expected: string }> {
  const store = await openFileStore(temp.home);
  try {
    const record = await store.refs.getThread(thread);
    const head = record?.head as Address;
    const step = (await store.objects.get(head)) as ThreadStepNode;
    const run = (await store.objects.get(step.run)) as AgentRunNode;
    const stored = (await readPromptText(store.objects, run.prompt)) ?? "";
    const { start, steps } = await readWholeHistory(store, step.prev as Address);
    const workflow = (await store.objects.get(start.workflow)) as WorkflowNode;
    const expected = buildContinuationPrompt({
      workflow,
      roleName: step.role,
      task: start.prompt,
      history: steps,
      edgePrompt: step.edgePrompt,
    });
    return { role: step.role, stored, expected };
  } finally {
    await store.close();
  }
}

function writeScenario(entries: Array<{ role: string; output?: Record<string, unknown>; body?: string }>): string {
  const placeholders = Array.from({ length: STEPS }, (_, index) => ({ role: index % 2 === 0 ? "writer" : "reviewer" }));
  const file = join(temp.work, "scenario.json");
  writeFileSync(file, JSON.stringify({ steps: [...placeholders, ...entries] }));
  return `scripted:${file}`;
}

async function step(thread: string, agent: string): Promise<string> {
  const result = await temp.uwf(["step", thread, "--agent", agent, "--json"]);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return stepResultSchema.parse(result.json()).steps[0]?.role ?? "";
}

describe("a step on a long thread", () => {
  it("stores the prompt the whole history gives, past the body quota, on first and later visits of an agent that keeps no conversation", async () => {
    const { thread } = await startLongThread({ marked: true });
    const agent = writeScenario([
      { role: "editor", output: { note: "cut the second act" }, body: "Edited." },
      { role: "writer", output: { summary: "draft 32" }, body: "Revised." },
      { role: "reviewer", output: { approved: true, comments: "Good." }, body: "" },
    ]);

    // The editor's first visit: `marked` found the marker in step 1's body; the prompt shows all 30 steps.
    expect(await step(thread, agent)).toBe("editor");
    const first = await storedAndExpectedPrompt(thread);
    expect(first.stored).toBe(first.expected);
    expect(first.stored).toContain("30 steps so far, oldest first.");
    expect(first.stored).toContain("Body (the first ");
    expect(first.stored).toContain("Body: left out (");
    expect(first.stored).toContain("Body: empty.");

    // The writer's later visit: a scripted agent keeps no conversation, so it is shown the whole thread again.
    expect(await step(thread, agent)).toBe("writer");
    const later = await storedAndExpectedPrompt(thread);
    expect(later.stored).toBe(later.expected);
    expect(later.stored).toContain("31 steps so far, oldest first. You acted at steps 1, 3, 5,");
    expect(later.stored).not.toContain("left out here");

    expect(await step(thread, agent)).toBe("reviewer");
    const review = await storedAndExpectedPrompt(thread);
    expect(review.stored).toBe(review.expected);
  });
});

describe("the chain index", () => {
  /** Steps 31 and 32 of a long thread: the writer's revision and the reviewer's answer. */
  const REVISION_AND_REVIEW = [
    { role: "writer", output: { summary: "draft 31" }, body: "Revised." },
    { role: "reviewer", output: { approved: false, comments: "Again." }, body: "" },
  ];

  const refsDatabase = () => new Database(join(temp.home, "refs.db"));

  async function recallIndex(thread: string) {
    const store = await openFileStore(temp.home);
    try {
      return await store.refs.recallChainIndex(thread);
    } finally {
      await store.close();
    }
  }

  async function logOf(thread: string): Promise<Array<{ address: string; role: string }>> {
    const log = await temp.uwf(["log", thread, "--json"]);
    expect(log.exitCode).toBe(0);
    return (log.json() as { steps: Array<{ address: string; role: string }> }).steps.map(({ address, role }) => ({
      address,
      role,
    }));
  }

  it("is kept by each step, so the next one finds the chain without the chain-link cache", async () => {
    const { thread } = await startLongThread({ marked: false });
    const agent = writeScenario(REVISION_AND_REVIEW);
    // The first step walks the chain (uwf did not write these steps) and keeps its index.
    expect(await step(thread, agent)).toBe("writer");
    expect((await recallIndex(thread))?.steps).toEqual(await logOf(thread));

    // Only the index knows the chain's links now. (A scripted agent keeps no conversation, so its
    // prompt shows every step: the step still reads each one's output, body and run.)
    const database = refsDatabase();
    database.run("DELETE FROM chain_links");
    database.close();
    expect(await step(thread, agent)).toBe("reviewer");

    const review = await storedAndExpectedPrompt(thread);
    expect(review.stored).toBe(review.expected);
    expect((await recallIndex(thread))?.steps).toEqual(await logOf(thread));
  });

  it("is kept for a fork, from the chain it shares", async () => {
    const { thread, steps } = await startLongThread({ marked: false });
    const middle = steps[11] as WrittenStep;
    const forked = await temp.uwf(["fork", middle.step, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = (forked.json() as { thread: string }).thread;
    expect((await recallIndex(fork))?.steps).toEqual((await logOf(thread)).slice(0, 12));
    expect(await recallIndex(thread)).toBeNull(); // forking reads the thread's chain, but does not index it
  });

  it("is rebuilt from the chain when it is damaged or ends elsewhere, and the step is the same", async () => {
    const { thread } = await startLongThread({ marked: false });
    const agent = writeScenario([
      ...REVISION_AND_REVIEW,
      { role: "writer", output: { summary: "draft 33" }, body: "Revised again." },
      { role: "reviewer", output: { approved: false, comments: "Once more." }, body: "" },
    ]);
    expect(await step(thread, agent)).toBe("writer");
    const damages = [
      "UPDATE chain_indexes SET steps = '[[1'",
      "UPDATE chain_indexes SET head = start, steps = '[]'",
      "UPDATE chain_indexes SET steps = json_remove(steps, '$[0]')", // still ends at the head, one step short
    ];
    for (const damage of damages) {
      const database = refsDatabase();
      database.run(damage);
      database.close();
      expect(await step(thread, agent)).not.toBe("");
      const stepped = await storedAndExpectedPrompt(thread);
      expect(stepped.stored).toBe(stepped.expected);
      expect((await recallIndex(thread))?.steps).toEqual(await logOf(thread));
    }
  });

  it("damaged in the middle, is reported by `uwf cas verify`, dropped by `uwf cas gc` and rebuilt by the next step", async () => {
    const { thread, steps } = await startLongThread({ marked: false });
    const agent = writeScenario(REVISION_AND_REVIEW);
    expect(await step(thread, agent)).toBe("writer");
    // A step trusts the index for every step but its head, so nothing else would notice this.
    const database = refsDatabase();
    database.run("UPDATE chain_indexes SET steps = json_replace(steps, '$[4][1]', 'editor')");
    database.close();
    const fifth = (steps[4] as WrittenStep).step;

    const verify = await temp.uwf(["cas", "verify"]);
    expect(verify.exitCode).toBe(1);
    expect(verify.stdout).toContain(
      `chain-index ${fifth}: thread ${thread}'s chain index says step 5 is ${fifth} with role "editor", but that step ran role "writer"; it is derived data: \`uwf cas gc\` drops it`,
    );
    expect(verify.stdout).toEndWith("1 problem(s)\n");

    const gc = await temp.uwf(["cas", "gc"]);
    expect(gc.exitCode).toBe(0);
    expect(gc.stdout).toMatch(/^deleted 0 object\(s\), kept \d+\ndropped 1 damaged chain index\(es\)\n$/);
    expect(await recallIndex(thread)).toBeNull();
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);

    expect(await step(thread, agent)).toBe("reviewer");
    expect((await recallIndex(thread))?.steps).toEqual(await logOf(thread));
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
  });

  it("keeps what a diff shows of each step it records, checked by `uwf cas verify` and dropped by `uwf cas gc` when wrong", async () => {
    const { thread } = await startLongThread({ marked: false });
    const agent = writeScenario(REVISION_AND_REVIEW);
    expect(await step(thread, agent)).toBe("writer");
    expect(await step(thread, agent)).toBe("reviewer");
    const [writer, reviewer] = (await logOf(thread)).slice(-2);
    const detailsOf = () => {
      const database = refsDatabase();
      const rows = database.query<{ entry: string }, []>("SELECT entry FROM chain_index_details").all();
      database.close();
      return rows.map((row) => JSON.parse(row.entry) as unknown[]);
    };
    // Only the steps uwf recorded: the thread's first 30 were written without it.
    expect(detailsOf().map((entry) => [entry[0], entry[3]])).toEqual(
      [
        [writer?.address, "scripted"],
        [reviewer?.address, "scripted"],
      ].sort(),
    );
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);

    const database = refsDatabase();
    database
      .query("UPDATE chain_index_details SET entry = json_replace(entry, '$[3]', 'someone') WHERE address = ?")
      .run(reviewer?.address ?? "");
    database.close();
    const verify = await temp.uwf(["cas", "verify"]);
    expect(verify.exitCode).toBe(1);
    expect(verify.stdout).toContain(
      `chain-index ${reviewer?.address}: thread ${thread}'s chain index says step 32 is ${reviewer?.address} with agent "someone" in its details, but that step's agent is "scripted"`,
    );
    const gc = await temp.uwf(["cas", "gc"]);
    expect(gc.stdout).toContain("dropped 1 damaged chain index(es)\n");
    expect(await recallIndex(thread)).toBeNull();
  });
});
