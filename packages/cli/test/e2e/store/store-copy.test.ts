import { beforeAll, describe, expect, it } from "bun:test";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import { storeCopyResultSchema } from "@uwf/protocol";
import { createTempHome, SCRIPTED, type TempHome, useTempHome } from "../../helpers/temp-home.ts";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
const temp = useTempHome();

async function copy(args: string[], home: TempHome = temp) {
  const copied = await home.uwf(["store", "copy", ...args, "--json"]);
  return { ...copied, result: copied.exitCode <= 1 ? storeCopyResultSchema.parse(copied.json()) : null };
}

describe("uwf store copy", () => {
  it("copies a home into PostgreSQL, where the thread reads and steps as it did, and again only what changed", async () => {
    const url = server.newStoreUrl();
    const thread = await temp.startThread();
    expect((await temp.uwf(["step", thread, "--agent", SCRIPTED])).exitCode).toBe(0);
    const before = (await temp.uwf(["show", thread, "--json"])).json();

    const first = await copy(["--to", url]);
    expect(first.stderr).toBe("");
    expect(first.exitCode).toBe(0);
    expect(first.result).toMatchObject({
      from: "file",
      to: url.replace(/:[^:@/]+@/, ":****@"),
      ok: true,
      threads: { created: 1, updated: 0, unchanged: 0, kept: 0 },
      workflows: { copied: 1 },
      chainIndexes: 1,
      problems: [],
      busy: [],
    });
    expect(first.result?.objects.read).toBeGreaterThan(5);
    expect(JSON.stringify(first.result)).not.toContain(new URL(url).password);

    const env = { UWF_STORE: url };
    expect((await temp.uwf(["show", thread, "--json"], { env })).json()).toEqual(before);
    expect((await temp.uwf(["cas", "verify"], { env })).exitCode).toBe(0);

    const again = await copy(["--to", url]);
    expect(again.result?.threads).toEqual({ created: 0, updated: 0, unchanged: 1, kept: 0 });

    // The home goes on; a second copy brings the new step over.
    expect((await temp.uwf(["step", thread, "--agent", SCRIPTED])).exitCode).toBe(0);
    const later = await copy(["--to", url]);
    expect(later.result?.threads).toEqual({ created: 0, updated: 1, unchanged: 0, kept: 0 });
    expect((await temp.uwf(["show", thread, "--json"], { env })).json()).toEqual(
      (await temp.uwf(["show", thread, "--json"])).json(),
    );

    // And back: a server copied into another home, which then holds the same thread, verified.
    const other = createTempHome();
    try {
      const back = await copy(["--from", url, "--to", "file"], other);
      expect(back.exitCode).toBe(0);
      expect(back.result?.threads.created).toBe(1);
      expect((await other.uwf(["show", thread, "--json"])).json()).toEqual(
        (await temp.uwf(["show", thread, "--json"], { env })).json(),
      );
      expect((await other.uwf(["cas", "verify"])).exitCode).toBe(0);
    } finally {
      other.cleanup();
    }
  });

  it("refuses a home with no store, the same store twice and a store it cannot name, changing nothing", async () => {
    const url = server.newStoreUrl();
    const empty = await temp.uwf(["store", "copy", "--to", url]);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("no uwf store in");

    await temp.startThread();
    const same = await temp.uwf(["store", "copy", "--to", "file"]);
    expect(same.exitCode).toBe(2);
    expect(same.stderr).toContain("--from and --to name the same store");

    const unknown = await temp.uwf(["store", "copy", "--to", "mysql://db/uwf"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unsupported store");

    const missing = await temp.uwf(["store", "copy"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("--to");
  });
});
