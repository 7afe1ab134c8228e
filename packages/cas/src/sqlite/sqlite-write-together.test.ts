import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { createSqliteRefStore, type SqliteRefStore } from "./create-sqlite-ref-store.ts";

const NEW_HEAD = "191B06QRP5RG9";

describe("writeTogether (SQLite)", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let path: string;
  let refs: SqliteRefStore;
  beforeEach(async () => {
    home = createTemporaryDirectory();
    path = join(home.path, "refs.db");
    refs = createSqliteRefStore(path);
    await refs.createThread(sampleThreadRecord());
  });
  afterEach(async () => {
    await refs.close();
    home.remove();
  });

  /** What another connection sees of the thread: its head and search words. */
  function seenElsewhere(): { head: string | undefined; words: string | undefined } {
    const other = new Database(path, { readonly: true });
    try {
      const { id } = sampleThreadRecord();
      return {
        head: other.query<{ head: string }, [string]>("SELECT head FROM threads WHERE id = ?").get(id)?.head,
        words: other.query<{ words: string }, [string]>("SELECT words FROM thread_words WHERE thread = ?").get(id)
          ?.words,
      };
    } finally {
      other.close();
    }
  }

  it("commits the writes it runs as one transaction: another connection sees none of them before the end", async () => {
    const { id, head } = sampleThreadRecord();
    let during: ReturnType<typeof seenElsewhere> | undefined;
    const result = await refs.writeTogether?.(async () => {
      expect(await refs.updateThread(id, head, { head: NEW_HEAD, stepCount: 1 })).toBe(true);
      await refs.indexThreadText(id, ["zebra"]);
      during = seenElsewhere();
      return "done";
    });
    expect(result).toBe("done");
    expect(during?.head).toBe(head);
    expect(during?.words).not.toContain("zebra");
    const after = seenElsewhere();
    expect(after.head).toBe(NEW_HEAD);
    expect(after.words).toContain("zebra");
  });

  it("leaves none of its writes when the work throws, and throws that error", async () => {
    const { id, head } = sampleThreadRecord();
    const failure = new Error("the head moved meanwhile");
    const outcome = refs.writeTogether?.(async () => {
      await refs.updateThread(id, head, { head: NEW_HEAD, stepCount: 1 });
      await refs.indexThreadText(id, ["zebra"]);
      throw failure;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(seenElsewhere().head).toBe(head);
    expect(seenElsewhere().words).not.toContain("zebra");
    // The connection is usable afterwards, outside any transaction.
    expect(await refs.updateThread(id, head, { stepCount: 2 })).toBe(true);
  });

  it("keeps the writes around a method whose own transaction failed and was caught (a savepoint rolled back)", async () => {
    const { id, head } = sampleThreadRecord();
    await refs.writeTogether?.(async () => {
      await refs.updateThread(id, head, { head: NEW_HEAD, stepCount: 1 });
      // An invalid record fails inside the store's own checks; the caller goes on without it.
      await refs.createThreads([sampleThreadRecord(), sampleThreadRecord()]).catch(() => {});
      await refs.indexThreadText(id, ["zebra"]);
    });
    expect(seenElsewhere()).toEqual({ head: NEW_HEAD, words: expect.stringContaining("zebra") });
  });
});
