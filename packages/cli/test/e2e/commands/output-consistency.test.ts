import { afterAll, beforeAll, describe, expect, it } from "bun:test";

import { listResultSchema, shownThreadSchema } from "@uwf/protocol";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../../helpers/temp-home.ts";
import { runOnBareTerminal, terminalSkipReason } from "../../helpers/terminal.ts";

/** An SGR escape sequence: what colours text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI colour codes is the point
const COLOUR = /\u001b\[[0-9;]*m/;

let temp: TempHome;

beforeAll(() => {
  temp = createTempHome();
});
afterAll(() => temp.cleanup());

const start = () => temp.startThread(LINEAR, "Task");

describe("the thread key", () => {
  it("names the thread in show, cancel and every listed record; id stays as an alias", async () => {
    const thread = await start();
    const shown = shownThreadSchema.parse((await temp.uwf(["show", thread.slice(0, 12), "--json"])).json());
    expect({ thread: shown.thread, id: shown.id }).toEqual({ thread, id: thread });
    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    for (const record of listed.threads) expect(record.thread).toBe(record.id);
    expect(listed.threads.map((record) => record.thread)).toContain(thread);
    const cancelled = shownThreadSchema.parse((await temp.uwf(["cancel", thread, "--json"])).json());
    expect({ thread: cancelled.thread, status: cancelled.status }).toEqual({ thread, status: "cancelled" });
  });
});

describe("uwf list", () => {
  it("shows 30 threads by default, with the hint for more on stderr; --limit 0 shows all", async () => {
    for (let count = await temp.threadCount(); count < 32; count++) await start();
    const total = await temp.threadCount();

    const human = await temp.uwf(["list"]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout.trimEnd().split("\n")).toHaveLength(1 + 30);
    expect(human.stdout).not.toContain("--offset");
    expect(human.stderr).toBe(`30 of ${total} threads; more with --offset 30, all with --limit 0\n`);
    expect((await temp.uwf(["list", "-q"])).stderr).toBe("");

    const json = await temp.uwf(["list", "--json"]);
    expect(json.stderr).toBe("");
    const page = listResultSchema.parse(json.json());
    expect({ shown: page.threads.length, limit: page.limit, total: page.total }).toEqual({
      shown: 30,
      limit: 30,
      total,
    });

    const all = listResultSchema.parse((await temp.uwf(["list", "--limit", "0", "--json"])).json());
    expect({ shown: all.threads.length, limit: all.limit }).toEqual({ shown: total, limit: null });
    const rest = await temp.uwf(["list", "--offset", "30"]);
    expect(rest.stdout.trimEnd().split("\n")).toHaveLength(1 + total - 30);
    expect(rest.stderr).toBe("");
  });
});

/** The real binary under a pseudo-terminal (`script`), stdout and stderr both a terminal; returns what it wrote. */
async function onTerminal(args: string[], env: Record<string, string>): Promise<string> {
  // The colour decisions under test read CI, FORCE_COLOR and NO_COLOR: the test runner's own do not leak in.
  const { exitCode, output } = await runOnBareTerminal(temp, args, env);
  expect({ exitCode, output }).toMatchObject({ exitCode: 0 });
  return output;
}

describe.skipIf(terminalSkipReason() !== null)(
  "colour (skipped without util-linux script, which makes a terminal)",
  () => {
    const step = async (env: Record<string, string>, flags: string[] = []) =>
      onTerminal([...flags, "step", await start(), "--agent", SCRIPTED], env);

    it("colours the step lines and the status line on a terminal", async () => {
      const output = await step({});
      expect(output).toMatch(COLOUR);
      expect(output).toContain("planner");
    });

    it("does not colour under CI, on a terminal, unless FORCE_COLOR says so", async () => {
      expect(await step({ CI: "true" })).not.toMatch(COLOUR);
      // A CI vendor's variable makes Node-style colour checks (the spinner's) say yes: uwf's decision still holds.
      expect(await step({ CI: "true", GITHUB_ACTIONS: "true" })).not.toMatch(COLOUR);
      expect(await step({ CI: "true", FORCE_COLOR: "1" })).toMatch(COLOUR);
    });

    it("does not colour with FORCE_COLOR=0, NO_COLOR or --no-color (the status line included)", async () => {
      expect(await step({ FORCE_COLOR: "0" })).not.toMatch(COLOUR);
      expect(await step({ NO_COLOR: "1" })).not.toMatch(COLOUR);
      expect(await step({}, ["--no-color"])).not.toMatch(COLOUR);
    });

    it("colours output into a pipe only when FORCE_COLOR asks", async () => {
      const thread = await start();
      expect((await temp.uwf(["show", thread], { env: { NO_COLOR: "" } })).stdout).not.toMatch(COLOUR);
      expect((await temp.uwf(["show", thread], { env: { NO_COLOR: "", FORCE_COLOR: "1" } })).stdout).toMatch(COLOUR);
    });
  },
);
