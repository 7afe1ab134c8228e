import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { createTempHome, FIXTURES, LINEAR, type TempHome } from "../helpers/temp-home.ts";
import { runOnTerminal } from "../helpers/terminal.ts";

const agent = (name: string) => join(FIXTURES, "agents", `${name}.sh`);

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
  temp.writeConfig(
    [
      "agents:",
      ...["one-second", "batch-worker"].flatMap((name) => [
        `  ${name}:`,
        "    command: sh",
        `    args: ["${agent(name)}"]`,
      ]),
    ].join("\n"),
  );
});
afterEach(() => temp.cleanup());

/** What a terminal shows of a spinner: its text after a frame of the braille spinner. */
const SPINNER_LINE = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] step \d+ · /;

describe.skipIf(Bun.which("script") === null)("on a terminal (skipped without util-linux script)", () => {
  it("draws a status line while an agent runs, and under CI=true none: only each step's line when it ends", async () => {
    const thread = await temp.startThread(LINEAR, "Task");
    const live = await runOnTerminal(temp, ["step", thread, "--agent", "one-second"]);
    expect(live.exitCode).toBe(0);
    expect(Bun.stripANSI(live.output)).toMatch(SPINNER_LINE);

    const ci = await runOnTerminal(temp, ["step", thread, "--agent", "one-second"], { env: { CI: "true" } });
    expect(ci.exitCode).toBe(0);
    expect(ci.output).not.toMatch(SPINNER_LINE);
    expect(ci.output.trimEnd().split("\r\n")).toEqual([
      expect.stringMatching(/^#2 doer one-second · \d/),
      expect.stringMatching(new RegExp(`^thread ${thread} ended`)),
    ]);
  });

  it("fits uwf list to the terminal's width, keeping whole thread ids; --wide and a pipe get every column", async () => {
    const original = await temp.startThread(LINEAR, "Task");
    const stepped = await temp.uwf(["step", original, "--agent", "batch-worker", "--json"]);
    expect(stepped.exitCode).toBe(0);
    const step = (stepped.json() as { steps: Array<{ address: string }> }).steps[0]?.address as string;
    const fork = (await temp.uwf(["fork", step, "--max-cost", "3", "--json"])).json() as { thread: string };
    const threads = [fork.thread, original];

    const all = ["THREAD", "STATUS", "WORKFLOW", "STEPS", "NEXT", "UPDATED", "BUDGET", "FORKED FROM"];
    const piped = await temp.uwf(["list"]);
    expect(piped.stdout.split("\n")[0]?.split(/ {2,}/)).toEqual(all);
    expect(Math.max(...piped.stdout.split("\n").map((line) => [...line].length))).toBeGreaterThan(100);

    for (const columns of [100, 80]) {
      const shown = await runOnTerminal(temp, ["list"], { columns });
      expect(shown.exitCode).toBe(0);
      const lines = Bun.stripANSI(shown.output).trimEnd().split("\r\n");
      for (const line of lines)
        expect({ columns, line, fits: [...line].length <= columns }).toMatchObject({ fits: true });
      expect(lines[0]).toStartWith(`${"THREAD".padEnd(28)}STATUS  WORKFLOW`);
      for (const thread of threads) expect(lines.some((line) => line.startsWith(`${thread}  `))).toBe(true);
    }
    const wide = await runOnTerminal(temp, ["list", "--wide"], { columns: 80 });
    expect(Bun.stripANSI(wide.output).split("\r\n")[0]?.split(/ {2,}/)).toEqual(all);
  });
});
