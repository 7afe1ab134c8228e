import { describe, expect, it } from "bun:test";
import { createSqliteRefStore, refDatabasePath } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { forksResultSchema, listResultSchema } from "@uwf/protocol";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** The forks `list --forks-of` finds, as the binary lists them. */
async function listedForks(thread: string): Promise<string[]> {
  const listed = await temp.uwf(["list", "--forks-of", thread, "--limit", "0", "--json"]);
  return listResultSchema.parse(listed.json()).threads.map((fork) => fork.id);
}

/** How many threads start at the thread's start node (itself and its forks), read beside the running uwf. */
async function familySize(thread: string): Promise<number> {
  const refs = createSqliteRefStore(refDatabasePath(temp.home));
  try {
    const record = await refs.getThread(thread);
    return (await refs.listThreads({ start: record?.start, limit: 0 })).total;
  } finally {
    await refs.close();
  }
}

/** `uwf fork --count` of many forks, once it has begun to write them: far more than it makes before the test stops it. */
async function forkingMany(thread: string) {
  const forking = temp.spawn(["fork", thread, "--count", "50000", "--max-forks", "50000"]);
  await waitFor(async () => (await familySize(thread)) > 1, {
    what: "the first batch of forks",
    timeoutMs: 60_000,
    intervalMs: 20,
  });
  return forking;
}

describe("uwf fork's limits", () => {
  it("refuses more than 1000 forks in one command (exit 2) and makes none, unless --max-forks allows them", async () => {
    const thread = await temp.startThread(LINEAR);
    const refused = await temp.uwf(["fork", thread, "--count", "1001"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "uwf: --count 1001 asks for more forks than the 1000 one command makes; give --max-forks 1001 to make them\n",
    );
    expect(await listedForks(thread)).toEqual([]);

    const allowed = await temp.uwf(["fork", thread, "--count", "1001", "--max-forks", "1001", "--json"]);
    expect(allowed.exitCode).toBe(0);
    expect(forksResultSchema.parse(allowed.json()).forks).toHaveLength(1001);
    expect(await listedForks(thread)).toHaveLength(1001);
  }, 120_000);

  it("stops between batches on Ctrl-C, prints the ids of the forks it made and exits 130", async () => {
    const thread = await temp.startThread(LINEAR);
    const forking = await forkingMany(thread);
    forking.kill("SIGINT");
    expect(await forking.exited).toBe(130);
    const printed = (await new Response(forking.stdout as ReadableStream).text()).trimEnd().split("\n");
    const stderr = await new Response(forking.stderr as ReadableStream).text();
    expect(stderr).toBe(
      `uwf: interrupted by SIGINT after ${printed.length} of 50000 forks; the ids of those made are printed, and no other fork was made\n`,
    );
    expect(printed.length).toBeLessThan(50000);
    expect(printed.length % 100).toBe(0);
    expect((await listedForks(thread)).sort()).toEqual(printed.toSorted());
  }, 120_000);

  it("leaves whole batches of forks, each listed by --forks-of, when killed with SIGKILL", async () => {
    const thread = await temp.startThread(LINEAR);
    const forking = await forkingMany(thread);
    forking.kill("SIGKILL");
    await forking.exited;
    const forks = await listedForks(thread);
    expect(forks.length).toBeGreaterThan(0);
    expect(forks.length).toBeLessThan(50000);
    expect(forks.length % 100).toBe(0);
    // Every fork the store holds carries its lineage: none is missing from the list.
    expect(await familySize(thread)).toBe(forks.length + 1);
  }, 120_000);
});
