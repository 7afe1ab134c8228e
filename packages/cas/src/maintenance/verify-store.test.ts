import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, VerifyProblem } from "@uwf/protocol";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { openFileStore } from "../file/open-file-store.ts";
import { createMemoryRefStore } from "../memory/create-memory-ref-store.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { Store } from "../store.ts";
import { sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { writeSampleThread } from "../testing/write-sample-thread.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import { missingNodeProblem } from "./missing-node-problem.ts";
import { verifyStore } from "./verify-store.ts";

/** What verify reported when it read every object twice: a re-hashing scan, then a walk that reads again. */
async function verifyByReadingTwice(store: Store): Promise<{ checked: number; problems: VerifyProblem[] }> {
  const problems: VerifyProblem[] = [];
  let checked = 0;
  for await (const address of store.objects.list()) {
    checked++;
    try {
      await store.objects.get(address);
    } catch (error) {
      if (!(error instanceof CorruptNodeError)) throw error;
      problems.push({ kind: "corrupt", address, message: error.message });
    }
  }
  await walkNodes(store.objects, await listStoreRoots(store.refs), {
    onMissing: (address, referrer) => {
      problems.push(missingNodeProblem(address, referrer));
    },
    onCorrupt: () => {},
  });
  return { checked, problems };
}

describe("verifyStore", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let store: Store;
  beforeEach(async () => {
    home = createTemporaryDirectory();
    store = await openFileStore(home.path);
  });
  afterEach(async () => {
    await store.close();
    home.remove();
  });

  const objectPath = (address: string) => join(home.path, "objects", address.slice(0, 2), `${address.slice(2)}.json`);

  it("passes a healthy store, counting every object and root", async () => {
    const { reachable } = await writeSampleThread(store, sampleThreadId(1), 3);
    await store.refs.setWorkflow({
      name: "review-loop",
      address: [...reachable][0] as string,
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    const report = await verifyStore(store);
    expect(report).toEqual({
      ok: true,
      checked: reachable.size,
      roots: 3,
      problems: [],
      unreachable: { total: 0, byKind: {} },
      leftovers: [],
      abandoned: [],
    });
  });

  it("reports a flipped byte with the address of the object", async () => {
    const { record } = await writeSampleThread(store, sampleThreadId(1), 2);
    const bytes = readFileSync(objectPath(record.head));
    bytes[10] = (bytes[10] as number) ^ 0x20;
    writeFileSync(objectPath(record.head), bytes);
    const report = await verifyStore(store);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      { kind: "corrupt", address: record.head, message: expect.stringContaining(`node ${record.head} is corrupt`) },
    ]);
  });

  it("reports thread roots and references that point at missing nodes", async () => {
    const { record } = await writeSampleThread(store, sampleThreadId(1), 2);
    const previous = ((await store.objects.get(record.head)) as { prev: string }).prev;
    await store.objects.delete(previous);
    await store.refs.createThread(
      sampleThreadRecord({ id: sampleThreadId(2), head: "0000000000000", start: record.start }),
    );
    const report = await verifyStore(store);
    expect(report.problems).toHaveLength(2);
    expect(report.problems).toContainEqual({
      kind: "missing",
      address: "0000000000000",
      referrer: null,
      message: "root 0000000000000 is not in the store",
    });
    expect(report.problems).toContainEqual({
      kind: "missing",
      address: previous,
      referrer: record.head,
      message: `node ${previous}, referenced by ${record.head}, is not in the store`,
    });
  });

  it("counts eval reports' nodes as roots, and names the reports whose node is missing", async () => {
    const { reachable } = await writeSampleThread(store, sampleThreadId(1), 1);
    const node = await store.objects.put({ report: "smoke" });
    const report = (index: number, address: string) => ({
      id: sampleThreadId(index, "01JR"),
      address,
      name: "smoke",
      createdAt: "2026-03-04T05:06:07.000Z",
    });
    await store.refs.saveEvalReport(report(1, node));
    const healthy = await verifyStore(store);
    expect(healthy).toMatchObject({ ok: true, checked: reachable.size + 1, roots: 3, problems: [] });
    await store.refs.saveEvalReport(report(2, "0000000000000"));
    await store.refs.saveEvalReport(report(3, "0000000000000"));
    await store.objects.delete(node);
    const missing = await verifyStore(store);
    expect(missing.ok).toBe(false);
    expect(missing.problems.sort((left, right) => (left.address < right.address ? -1 : 1))).toEqual([
      {
        kind: "missing",
        address: "0000000000000",
        referrer: null,
        message: `eval reports ${sampleThreadId(2, "01JR")}, ${sampleThreadId(3, "01JR")} name node 0000000000000, which is not in the store`,
      },
      {
        kind: "missing",
        address: node,
        referrer: null,
        message: `eval report ${sampleThreadId(1, "01JR")} names node ${node}, which is not in the store`,
      },
    ]);
  });

  it("lists leftover temporary files without failing the store", async () => {
    const { record } = await writeSampleThread(store, sampleThreadId(1), 1);
    writeFileSync(join(home.path, "objects", record.head.slice(0, 2), ".tmp-1-2-3"), '{"partial');
    const report = await verifyStore(store);
    expect(report.ok).toBe(true);
    expect(report.leftovers.map((leftover) => leftover.name)).toEqual([`${record.head.slice(0, 2)}/.tmp-1-2-3`]);
  });

  it("counts unreachable objects by kind, and reports each thread start that no record reaches", async () => {
    const first = await writeSampleThread(store, sampleThreadId(1), 2);
    const second = await writeSampleThread(store, sampleThreadId(2), 1);
    await store.objects.put({ stray: true });
    expect((await verifyStore(store)).unreachable).toEqual({ total: 1, byKind: { json: 1 } });

    // The same objects under an empty ref store: refs.db lost, or emptied.
    const report = await verifyStore({ ...store, refs: createMemoryRefStore() });
    expect(report.ok).toBe(false);
    expect(report.unreachable).toEqual({
      total: report.checked,
      byKind: {
        "text/1": 6,
        "thread-step/1": 3,
        "agent-run/1": 3,
        "output/1": 3,
        "thread-start/1": 2,
        "workflow/1": 1,
        json: 1,
      },
    });
    expect(
      report.problems.map(({ kind, address }) => ({ kind, address })).sort((a, b) => (a.address < b.address ? -1 : 1)),
    ).toEqual(
      [first.record.start, second.record.start].sort().map((address) => ({ kind: "unrecorded-thread", address })),
    );
    expect(report.problems[0]?.message).toContain("`uwf cas recover` rebuilds its thread");
  });

  it("lists objects set aside by an interrupted gc as leftovers, reading them as the node", async () => {
    const { record } = await writeSampleThread(store, sampleThreadId(1), 1);
    const shard = join(home.path, "objects", record.head.slice(0, 2));
    renameSync(objectPath(record.head), join(shard, `.gc-${record.head.slice(2)}`));
    const report = await verifyStore(store);
    expect(report.ok).toBe(true);
    expect(report.leftovers).toEqual([
      {
        name: `${record.head.slice(0, 2)}/.gc-${record.head.slice(2)}`,
        kind: "set-aside",
        writtenAt: expect.any(Number),
      },
    ]);
  });

  it("reports what reading every object twice reported, in the same order, reading each object once", async () => {
    const threads = [];
    for (let index = 1; index <= 4; index++) threads.push(await writeSampleThread(store, sampleThreadId(index), 3));
    const [first, second, third, fourth] = threads.map((thread) => thread.record);
    if (first === undefined || second === undefined || third === undefined || fourth === undefined) throw new Error();
    type Step = { prev: Address; body: Address; run: Address };
    // A corrupt step (whose own refs are then unknown), a missing body, a missing prev, a missing root.
    const corruptStep = ((await store.objects.get(first.head)) as Step).prev;
    const bytes = readFileSync(objectPath(corruptStep));
    bytes[12] = (bytes[12] as number) ^ 0x01;
    writeFileSync(objectPath(corruptStep), bytes);
    await store.objects.delete(((await store.objects.get(second.head)) as Step).body);
    await store.objects.delete(((await store.objects.get(third.head)) as Step).prev);
    await store.refs.createThread(
      sampleThreadRecord({ id: sampleThreadId(5), head: "0000000000000", start: fourth.start }),
    );
    // Unreachable, with a ref to a node that is not there: not a problem.
    await store.objects.put({ type: "text/1", text: "orphan" });

    let reads = 0;
    const counting: Store = {
      ...store,
      objects: {
        ...store.objects,
        get: (address) => {
          reads++;
          return store.objects.get(address);
        },
      },
    };
    const report = await verifyStore(counting);
    // Each stored object once, plus one failed attempt per missing node.
    expect(reads).toBe(report.checked + 3);
    const expected = await verifyByReadingTwice(store);
    expect(report.problems).toEqual(expected.problems);
    expect(report.checked).toBe(expected.checked);
    expect(report.problems.map((problem) => problem.kind)).toEqual(["corrupt", "missing", "missing", "missing"]);
  });

  it("reads the nodes written after its scan that a root listed after it reaches", async () => {
    await writeSampleThread(store, sampleThreadId(1), 1);
    const late = async () => {
      const text = await store.objects.put({ type: "text/1", text: "written after the scan" });
      const start = await store.objects.put({ type: "thread-start/1", workflow: text, prompt: "late", cwd: "/" });
      return [{ name: "late", address: start, updatedAt: "2026-01-01T00:00:00.000Z" }];
    };
    const report = await verifyStore({ ...store, refs: { ...store.refs, listWorkflows: late } });
    expect(report.problems).toEqual([]);
    expect(report.roots).toBe(3);
  });
});
