import { afterEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { outputNodeSchema, type ThreadRecord, threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { findChainIndexProblems } from "../repair/find-chain-index-problems.ts";
import { resumeThread } from "../step/resume-thread.ts";
import { stepThread } from "../step/step-thread.ts";
import { expireDueSuspensions } from "./expire-due-suspensions.ts";

/** The roles' `suspendTimeout`: short, so the tests wait little. */
const WAIT = "300ms";
const WAIT_MS = 300;

let kit: EngineTestKit;
afterEach(() => kit.cleanup());

/** A workflow file in the kit's home, and a thread of it stepped once by `entries`' scripted agent. */
async function suspendedThread(
  yaml: string,
  entries: Parameters<EngineTestKit["scriptedAgent"]>[0],
): Promise<{ record: ThreadRecord; agent: string }> {
  kit = createEngineTestKit();
  const file = join(kit.home, "gate.yaml");
  writeFileSync(file, yaml);
  const started = await kit.startThread({ workflow: file });
  const agent = kit.scriptedAgent(entries);
  const outcome = await stepThread(kit.stepOptions(started.id, { defaultAgent: agent }));
  return { record: outcome.record, agent };
}

const ASKS = { role: "asker", output: { $status: "$SUSPEND", reason: "Which colour?" } };

function pass() {
  return expireDueSuspensions({ store: kit.store, home: kit.home, host: "engine-test", now: kit.now });
}

async function pastDeadline(): Promise<void> {
  await Bun.sleep(WAIT_MS + 50);
}

/** Counts the nodes the kit's store reads from here on. */
function countReads(): { reads: number } {
  const counter = { reads: 0 };
  const get = kit.store.objects.get.bind(kit.store.objects);
  kit.store.objects.get = (address) => {
    counter.reads++;
    return get(address);
  };
  return counter;
}

/** An asker that suspends for `suspendTimeout`; a `$timeout` edge to $END unless `withTimeoutEdge` is false. */
function askerWorkflow(suspendTimeout: string, withTimeoutEdge = true): string {
  return `name: gate
roles:
  asker: { goal: Ask., suspendTimeout: ${suspendTimeout} }
graph:
  $START: [{ role: asker, prompt: "Ask." }]
  asker:
    done: { role: $END }
${withTimeoutEdge ? "    $timeout: { role: $END }\n" : ""}`;
}

const ASKER_WITH_TIMEOUT = askerWorkflow("1h");

describe("expireDueSuspensions", () => {
  it("keeps a suspension's deadline on its record, so a pass with nothing due reads no node", async () => {
    const { record } = await suspendedThread(ASKER_WITH_TIMEOUT, [ASKS]);
    const head = threadStepNodeSchema.parse(await kit.store.objects.get(record.head));
    const deadline = new Date(Date.parse(head.completedAt) + 3_600_000).toISOString();
    expect(record.deadline).toBe(deadline);
    expect((await kit.store.refs.getThread(record.id))?.deadline).toBe(deadline);
    const counter = countReads();
    expect((await pass()).expired).toEqual([]);
    expect(counter.reads).toBe(0);
  });

  it("reads the wait of a forked suspension once, then keeps its deadline", async () => {
    const { record } = await suspendedThread(ASKER_WITH_TIMEOUT, [ASKS]);
    const fork = await kit.fork(record.head);
    expect(fork.status).toBe("suspended");
    expect(fork.deadline).toBe("1970-01-01T00:00:00.000Z");
    const counter = countReads();
    expect((await pass()).expired).toEqual([]);
    expect(counter.reads).toBeGreaterThan(0);
    expect((await kit.store.refs.getThread(fork.id))?.deadline).toBe(record.deadline as string);
    counter.reads = 0;
    expect((await pass()).expired).toEqual([]);
    expect(counter.reads).toBe(0);
  });

  it("leaves a suspension before its deadline, then ends the thread by a $timeout edge to $END, once across passes", async () => {
    const { record } = await suspendedThread(askerWorkflow(WAIT), [ASKS]);
    expect(record.status).toBe("suspended");
    expect((await pass()).expired).toEqual([]);
    await pastDeadline();
    const passes = await Promise.all([pass(), pass(), pass()]);
    const expired = passes.flatMap((result) => result.expired);
    expect(expired.map(({ thread, role, routed }) => ({ thread, role, routed }))).toEqual([
      { thread: record.id, role: "asker", routed: "$END" },
    ]);
    const ended = await kit.store.refs.getThread(record.id);
    expect(ended).toMatchObject({
      status: "ended",
      stepCount: 2,
      reason: null,
      outcome: { role: "asker", status: "$timeout", edge: { index: 1, condition: null, key: "$timeout" } },
    });
    const step = threadStepNodeSchema.parse(await kit.store.objects.get(ended?.head as string));
    expect(outputNodeSchema.parse(await kit.store.objects.get(step.output)).fields).toEqual({ $status: "$timeout" });
    expect(step.timedOut?.after).toBe(WAIT);
    const run = await kit.runNode(step.run);
    expect(run).toMatchObject({ agent: "$timeout", kind: "timeout", attempts: [], outcome: "ok", usage: null });
    // Its chain index keeps what a diff shows of the step, as a step's commit keeps it.
    const index = await kit.store.refs.recallChainIndex(record.id, { details: true });
    expect(index?.steps.map((indexed) => indexed.details?.status)).toEqual(["$SUSPEND", "$timeout"]);
    expect(await findChainIndexProblems(kit.store)).toEqual([]);
    expect((await pass()).expired).toEqual([]);
  });

  it("fans out by a $timeout edge, its branches made", async () => {
    const { record } = await suspendedThread(
      `name: gate
roles:
  asker: { goal: Ask., suspendTimeout: ${WAIT} }
  reviewer: { goal: Review. }
  merger: { goal: Merge. }
graph:
  $START: [{ role: asker, prompt: "Ask." }]
  asker:
    done: { role: $END }
    $timeout:
      parallel:
        a: { role: reviewer, prompt: "Look at a." }
        b: { role: reviewer, prompt: "Look at b." }
      join: { role: merger, prompt: "Merge." }
  merger: [{ role: $END }]
`,
      [ASKS],
    );
    await pastDeadline();
    const { expired } = await pass();
    expect(expired.map(({ routed, record }) => [routed, record.status])).toEqual([["merger", "waiting"]]);
    const links = await kit.store.refs.listBranches(record.id);
    expect(links.map((link) => [link.key, link.step])).toEqual([
      ["a", 2],
      ["b", 2],
    ]);
  });

  it("ends a role: branch whose suspension ran out, as its reply would, and settles its parent", async () => {
    const { record: parent, agent } = await suspendedThread(
      `name: gate
roles:
  planner: { goal: Plan. }
  asker: { goal: Ask., suspendTimeout: ${WAIT} }
  merger: { goal: Merge. }
graph:
  $START: [{ role: planner, prompt: "Plan." }]
  planner:
    - parallel:
        a: { role: asker, prompt: "Ask about a." }
      join: { role: merger, prompt: "Merge." }
  merger: [{ role: $END }]
`,
      [
        { role: "planner", output: {} },
        { ...ASKS, branch: "*" },
      ],
    );
    expect(parent.status).toBe("waiting");
    const [link] = await kit.store.refs.listBranches(parent.id);
    const branch = await stepThread(kit.stepOptions(link?.thread as string, { defaultAgent: agent }));
    expect(branch.record.status).toBe("suspended");
    expect((await kit.store.refs.getThread(parent.id))?.status).toBe("waiting");
    await pastDeadline();
    const { expired } = await pass();
    expect(expired.map(({ thread, routed }) => `${thread} → ${routed}`)).toEqual([`${link?.thread} → $END`]);
    expect(await kit.store.refs.getThread(link?.thread as string)).toMatchObject({
      status: "ended",
      outcome: { role: "asker", status: "$timeout", edge: null },
    });
    expect(await kit.store.refs.getThread(parent.id)).toMatchObject({ status: "active", next: "merger" });
  });

  it("fails a thread with no $timeout edge, keeping its suspension, and a late answer clears the failure", async () => {
    const { record, agent } = await suspendedThread(askerWorkflow(WAIT, false), [
      ASKS,
      { role: "asker", output: { $status: "done" } },
    ]);
    await pastDeadline();
    const { expired } = await pass();
    expect(expired.map(({ routed }) => routed)).toEqual([null]);
    const failed = await kit.store.refs.getThread(record.id);
    expect(failed).toMatchObject({
      status: "failed",
      head: record.head,
      reason: "Which colour?",
      failure: { code: "suspend-timeout", run: null, attempts: 1 },
    });
    await expect(stepThread(kit.stepOptions(record.id, { defaultAgent: agent }))).rejects.toThrow(
      "waits for an answer to its asker role",
    );
    const answered = await resumeThread({ ...kit.stepOptions(record.id, { defaultAgent: agent }), answer: "blue" });
    expect(answered.record.status).toBe("ended");
    expect(answered.record.failure).toBeUndefined();
    expect((await kit.store.refs.getThread(record.id))?.failure).toBeUndefined();
  });
});
