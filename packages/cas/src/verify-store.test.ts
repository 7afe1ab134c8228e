import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { writeSampleThread } from "../test/write-sample-thread.ts";
import { openFileStore } from "./open-file-store.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
import type { Store } from "./store.ts";
import { verifyStore } from "./verify-store.ts";

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
    expect(report).toEqual({ ok: true, checked: reachable.size, roots: 3, problems: [], leftovers: [] });
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

  it("lists leftover temporary files without failing the store", async () => {
    const { record } = await writeSampleThread(store, sampleThreadId(1), 1);
    writeFileSync(join(home.path, "objects", record.head.slice(0, 2), ".tmp-1-2-3"), '{"partial');
    const report = await verifyStore(store);
    expect(report.ok).toBe(true);
    expect(report.leftovers.map((leftover) => leftover.name)).toEqual([`${record.head.slice(0, 2)}/.tmp-1-2-3`]);
  });
});
