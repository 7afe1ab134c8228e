import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ThreadRecord, ThreadStepNode, WorkflowNode } from "@uwf/protocol";
import { addressOfNode } from "../encoding/hash-node.ts";
import { objectLocation } from "../file/object-file-layout.ts";
import { openFileStore } from "../file/open-file-store.ts";
import { createMemoryStore } from "../memory/create-memory-store.ts";
import type { Store } from "../store.ts";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { sampleSchedule } from "../testing/schedule-conformance.ts";
import { copyStore } from "./copy-store.ts";
import { verifyStore } from "./verify-store.ts";

const nodes = createSampleNodes();
const firstStep = nodes["thread-step/1"] as ThreadStepNode;
const stepAfter = (prev: ThreadStepNode, role: string): ThreadStepNode => ({
  ...prev,
  prev: addressOfNode(prev),
  role,
});

/** A source home holding every sample node, a registered workflow and one thread at its first step. */
async function seed(store: Store): Promise<void> {
  await store.objects.putMany(Object.values(nodes));
  const workflowAddress = addressOfNode(nodes["workflow/1"]);
  await store.refs.setWorkflow({
    name: "review-loop",
    address: workflowAddress,
    updatedAt: "2026-01-02T03:04:05.000Z",
  });
  const start = addressOfNode(nodes["thread-start/1"]);
  const head = addressOfNode(firstStep);
  await store.refs.createThread(sampleThreadRecord({ workflowAddress, start, head, stepCount: 1 }));
  const details = {
    output: firstStep.output,
    body: firstStep.body,
    agent: "claude",
    startedAt: firstStep.startedAt,
    completedAt: firstStep.completedAt,
    status: null,
    usage: { inputTokens: 1234, outputTokens: 567, cacheReadTokens: 89, cacheWriteTokens: 0, costUsd: 0.0123 },
  };
  await store.refs.rememberChainIndex(sampleThreadId(1), {
    start,
    steps: [{ address: head, role: "writer", details }],
  });
}

/** Appends a step to thread 1 of `store`, as a step would: node first, then the head. */
async function advance(store: Store, step: ThreadStepNode): Promise<void> {
  const record = await store.refs.getThread(sampleThreadId(1));
  if (record === null) throw new Error("no thread 1");
  const head = await store.objects.put(step);
  await store.refs.updateThread(record.id, record.head, { head, stepCount: record.stepCount + 1 });
}

describe("copyStore", () => {
  let home: string;
  let source: Store;
  let target: Store;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), "uwf-copy-"));
    source = await openFileStore(home);
    target = createMemoryStore();
    await seed(source);
  });
  afterEach(async () => {
    await source.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("copies the schedules, and keeps one the target changed later", async () => {
    await source.refs.createSchedule(sampleSchedule());
    await source.refs.createSchedule(sampleSchedule({ name: "weekly", cron: "0 9 * * 1" }));
    const changedLater = sampleSchedule({
      name: "weekly",
      paused: true,
      nextFireAt: null,
      updatedAt: "2026-06-01T00:00:00.000Z",
    });
    await target.refs.createSchedule(changedLater);
    const first = await copyStore(source, target);
    expect(first.schedules).toEqual({ copied: 1, unchanged: 0, kept: 1 });
    expect(await target.refs.listSchedules()).toEqual([sampleSchedule(), changedLater]);
    const again = await copyStore(source, target);
    expect(again.schedules).toEqual({ copied: 0, unchanged: 1, kept: 1 });
  });

  it("copies every object, the registry, the threads and their chain indexes, and the target verifies clean", async () => {
    const report = await copyStore(source, target);
    expect(report.problems).toEqual([]);
    expect(report.objects).toEqual({ read: 15, written: 15 });
    expect(report.workflows).toEqual({ copied: 1, unchanged: 0, kept: 0 });
    expect(report.threads).toEqual({ created: 1, updated: 0, unchanged: 0, kept: 0 });
    expect(report.chainIndexes).toBe(1);
    expect(await target.refs.getThread(sampleThreadId(1))).toEqual(await source.refs.getThread(sampleThreadId(1)));
    expect(await target.refs.listWorkflows()).toEqual(await source.refs.listWorkflows());
    const copiedIndex = await target.refs.recallChainIndex(sampleThreadId(1), { details: true });
    expect(copiedIndex?.steps[0]?.details?.output).toBe(firstStep.output);
    expect(copiedIndex).toEqual(await source.refs.recallChainIndex(sampleThreadId(1), { details: true }));
    expect((await verifyStore(target)).problems).toEqual([]);
  });

  it("copies a thread's search words and its steps' live output", async () => {
    const id = sampleThreadId(1);
    await source.refs.indexThreadText(id, ["Fix the flaky parser"]);
    const chunk = { step: 1, seq: 1, stream: "stdout" as const, text: "hello\n", at: "2026-01-02T03:04:05.000Z" };
    await source.refs.appendStepOutput(id, [chunk]);
    await copyStore(source, target);
    expect((await target.refs.searchThreads({ text: "flaky pars" })).threads.map((thread) => thread.id)).toEqual([id]);
    expect(await target.refs.readStepOutput(id)).toEqual([chunk]);
    await copyStore(source, target);
    expect(await target.refs.readStepOutput(id)).toEqual([chunk]);
  });

  it("copies a fork onto another workflow version with the workflow it left in its lineage", async () => {
    const original = (await source.refs.getThread(sampleThreadId(1))) as ThreadRecord;
    const version2 = await source.objects.put({ ...(nodes["workflow/1"] as WorkflowNode), description: "version 2" });
    const onto = sampleThreadRecord({
      id: sampleThreadId(2),
      workflowAddress: version2,
      start: original.start,
      head: original.head,
      stepCount: 1,
      forkedFrom: {
        thread: original.id,
        step: 1,
        address: original.head,
        replaced: false,
        workflow: original.workflowAddress,
      },
    });
    await source.refs.createThread(onto);
    const report = await copyStore(source, target);
    expect(report.problems).toEqual([]);
    expect(await target.refs.getThread(onto.id)).toEqual(onto);
    expect((await copyStore(source, target)).threads).toEqual({ created: 0, updated: 0, unchanged: 2, kept: 0 });
  });

  it("changes nothing when run again, and brings over steps the source took since", async () => {
    await copyStore(source, target);
    const again = await copyStore(source, target);
    expect(again.threads).toEqual({ created: 0, updated: 0, unchanged: 1, kept: 0 });
    expect(again.workflows).toEqual({ copied: 0, unchanged: 1, kept: 0 });

    await advance(source, stepAfter(firstStep, "reviewer"));
    const later = await copyStore(source, target);
    expect(later.threads).toEqual({ created: 0, updated: 1, unchanged: 0, kept: 0 });
    expect(later.problems).toEqual([]);
    expect((await target.refs.getThread(sampleThreadId(1)))?.head).toBe(
      addressOfNode(stepAfter(firstStep, "reviewer")),
    );
    expect((await verifyStore(target)).problems).toEqual([]);
  });

  it("writes no object the target holds, so a copy run again leaves every write time as it was", async () => {
    await copyStore(source, target);
    const firstCopied = Date.now();
    // The clock moves on, so anything written again from here on is told apart by its write time.
    while (Date.now() <= firstCopied) await Bun.sleep(1);
    const again = await copyStore(source, target);
    expect(again.objects).toEqual({ read: 15, written: 0 });
    expect(again.problems).toEqual([]);
    const addresses: string[] = [];
    for await (const address of target.objects.list()) addresses.push(address);
    expect(addresses).toHaveLength(15);
    for (const address of addresses) {
      expect({ address, writtenBefore: await target.objects.deleteIfWrittenBefore(address, firstCopied + 1) }).toEqual({
        address,
        writtenBefore: true,
      });
    }
  });

  it("brings over the threads deleted since, deleting the target's record where it is at that head", async () => {
    await copyStore(source, target);
    const head = addressOfNode(firstStep);
    expect(await source.refs.deleteThread(sampleThreadId(1), head, new Date("2026-03-04T05:06:07.000Z"))).toBe(true);
    const report = await copyStore(source, target);
    expect(report.problems).toEqual([]);
    expect(await target.refs.getThread(sampleThreadId(1))).toBeNull();
    expect(await target.refs.listDeletedThreads()).toEqual(await source.refs.listDeletedThreads());
    expect((await verifyStore(target)).problems).toEqual([]);
  });

  it("keeps a thread the target has taken further, and reports one whose chains parted", async () => {
    await copyStore(source, target);
    await advance(target, stepAfter(firstStep, "reviewer"));
    const ahead = await copyStore(source, target);
    expect(ahead.threads.kept).toBe(1);
    expect(ahead.problems).toEqual([]);

    await advance(source, stepAfter(firstStep, "writer"));
    const parted = await copyStore(source, target);
    expect(parted.problems).toEqual([
      {
        kind: "diverged",
        subject: sampleThreadId(1),
        message: expect.stringContaining("the target's record was kept"),
      },
    ]);
    expect((await target.refs.getThread(sampleThreadId(1)))?.head).toBe(
      addressOfNode(stepAfter(firstStep, "reviewer")),
    );
  });

  it("copies the eval reports' entries once, and reports an id the target holds for another report", async () => {
    const node = addressOfNode(nodes["eval-report/1"]);
    const entry = (index: number, name: string) => ({
      id: sampleThreadId(index, "01JR"),
      address: node,
      name,
      createdAt: "2026-03-04T05:06:07.000Z",
    });
    await source.refs.saveEvalReport(entry(1, "smoke"));
    await source.refs.saveEvalReport(entry(2, "nightly"));
    const first = await copyStore(source, target);
    expect(first.problems).toEqual([]);
    expect(first.evalReports).toEqual({ copied: 2, unchanged: 0 });
    expect(await target.refs.listEvalReports({})).toEqual(await source.refs.listEvalReports({}));
    // Reached through the reports' entries; only the sample fan-out's nodes and answer, which no step names,
    // and the sample exploration and prompt, which no entry or step names, are not.
    expect(await verifyStore(target)).toMatchObject({
      ok: true,
      unreachable: {
        total: 5,
        byKind: { "fan-out/1": 1, "branches/1": 1, "answer/1": 1, "explore-report/1": 1, "prompt/1": 1 },
      },
    });

    const again = await copyStore(source, target);
    expect(again.evalReports).toEqual({ copied: 0, unchanged: 2 });
    expect(again.problems).toEqual([]);

    await target.refs.deleteEvalReport(entry(2, "nightly").id);
    await target.refs.saveEvalReport(entry(2, "renamed"));
    await source.refs.saveEvalReport(entry(3, "smoke"));
    const parted = await copyStore(source, target);
    expect(parted.evalReports).toEqual({ copied: 1, unchanged: 1 });
    expect(parted.problems).toEqual([
      {
        kind: "diverged",
        subject: entry(2, "nightly").id,
        message: `eval report ${entry(2, "nightly").id} differs in the target (its node, name or time); the target's entry was kept`,
      },
    ]);
    expect(await target.refs.getEvalReport(entry(2, "nightly").id)).toEqual(entry(2, "renamed"));
    expect(await target.refs.getEvalReport(entry(3, "smoke").id)).toEqual(entry(3, "smoke"));
  });

  it("copies a fan-out's branches and their links once, keeping and reporting a link the target holds for another thread", async () => {
    const parent = (await source.refs.getThread(sampleThreadId(1))) as ThreadRecord;
    await source.refs.updateThread(parent.id, parent.head, { status: "waiting", next: "writer" });
    const link = (key: string, index: number, thread: number) => ({
      parent: parent.id,
      step: 1,
      key,
      index,
      thread: sampleThreadId(thread),
      createdAt: "2026-03-04T05:06:07.000Z",
    });
    const branch = (key: string, index: number, thread: number) => ({
      link: link(key, index, thread),
      record: sampleThreadRecord({
        id: sampleThreadId(thread),
        workflowAddress: parent.workflowAddress,
        start: parent.start,
        head: parent.head,
        stepCount: 1,
        next: "reviewer",
        branchOf: { thread: parent.id, step: 1, branch: key, address: parent.head, role: "reviewer" },
      }),
    });
    await source.refs.createBranches([branch("security", 0, 2), branch("speed", 1, 3)]);
    const report = await copyStore(source, target);
    expect(report.problems).toEqual([]);
    expect(report.threads.created).toBe(3);
    expect(await target.refs.listBranches(parent.id)).toEqual(await source.refs.listBranches(parent.id));
    expect(await target.refs.getThread(sampleThreadId(2))).toEqual(await source.refs.getThread(sampleThreadId(2)));
    expect((await verifyStore(target)).problems).toEqual([]);
    expect((await copyStore(source, target)).problems).toEqual([]);
    expect(await target.refs.listBranches(parent.id)).toHaveLength(2);

    // The same fan-out made in both stores apart: the target's links stay as they are.
    await source.refs.createBranches([branch("style", 2, 4)]);
    await target.refs.createBranches([branch("style", 2, 5)]);
    const parted = await copyStore(source, target);
    expect(parted.problems).toEqual([
      {
        kind: "diverged",
        subject: parent.id,
        message: `branch style of thread ${parent.id}'s step 1 is thread ${sampleThreadId(5)} in the target, ${sampleThreadId(4)} in the source; the target's link was kept`,
      },
    ]);
    expect((await target.refs.listBranches(parent.id)).map((each) => each.thread)).toEqual(
      [2, 3, 5].map((n) => sampleThreadId(n)),
    );
  });

  it("finds, at the end, a node a faulty target said it stored but does not hold", async () => {
    const body = addressOfNode(nodes["text/1"]);
    const faulty = createMemoryStore();
    const putMany = faulty.objects.putMany.bind(faulty.objects);
    faulty.objects.putMany = async (batch, options) => {
      const addresses = await putMany(batch, options);
      await faulty.objects.delete(body);
      return addresses;
    };
    const report = await copyStore(source, faulty);
    expect(report.problems).toEqual([{ kind: "missing", subject: body, message: `node ${body} is not in the target` }]);
  });

  it("reports a corrupt source object and copies the rest", async () => {
    const body = addressOfNode(nodes["text/1"]);
    writeFileSync(objectLocation(join(home, "objects"), body).path, '{"type":"text/1","text":"tampered"}');
    const report = await copyStore(source, target);
    expect(report.problems.map((problem) => [problem.kind, problem.subject])).toEqual([["corrupt", body]]);
    expect(report.objects).toEqual({ read: 15, written: 14 });
    expect(await target.objects.has(body)).toBe(false);
    expect(await target.refs.getThread(sampleThreadId(1))).not.toBeNull();
  });
});
