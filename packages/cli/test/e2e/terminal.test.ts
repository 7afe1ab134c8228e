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
});
