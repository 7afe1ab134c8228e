import { describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, fixtureAgentsConfig, LINEAR, useTempHome } from "../../helpers/temp-home.ts";
import { runOnTerminal, startOnTerminal, terminalSkipReason } from "../../helpers/terminal.ts";

const ASK = join(FIXTURES, "workflows/ask.yaml");
const ASK_AGENT = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;

/** A thread whose role asked, and the human's answer: its transcript is about 35 lines. */
async function answeredThread(): Promise<string> {
  const thread = await temp.startThread(ASK, "What colour?");
  expect((await temp.uwf(["step", thread, "--agent", ASK_AGENT])).exitCode).toBe(20);
  const resumed = await temp.uwf(["resume", thread, "-p", "The sky's, on a clear day", "--agent", ASK_AGENT]);
  expect(resumed.exitCode).toBe(0);
  return thread;
}

describe("uwf read", () => {
  it("shows what each step was told, and the human's answer to a role's question", async () => {
    const thread = await answeredThread();
    const read = await temp.uwf(["read", thread]);
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toContain("## Step 1 · asker\n\n*scripted · ");
    expect(read.stdout).toContain("\n\n> **Prompt:** Answer the question.\n\n```yaml\n$status: $SUSPEND\n");
    expect(read.stdout).toContain(
      "\n\n> **Asked:** Which colour do you mean?\n>\n> **The human answered:** The sky's, on a clear day\n\n```yaml\nanswer: blue\n",
    );
  });
});

const temp = useTempHome({
  setUp: (home) => home.writeConfig([...fixtureAgentsConfig(["one-second", "batch-worker"])].join("\n")),
});

/** What a terminal shows of a spinner: its text after a frame of the braille spinner. */
const SPINNER_LINE = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] step \d+ · /;

describe.skipIf(terminalSkipReason() !== null)("on a terminal (skipped without util-linux script)", () => {
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

  it("shows a batch's running, queued, done and failed threads on a status line as they change", async () => {
    const [first, second, third] = [await temp.startThread(), await temp.startThread(), await temp.startThread()];
    const hold = join(temp.work, "hold");
    mkdirSync(hold);
    const failing = join(temp.work, "failing");
    writeFileSync(failing, `${third}\n`);
    const release = (thread: string) => {
      for (const step of [1, 2]) writeFileSync(join(hold, `${thread}.${step}`), "");
    };
    const batch = startOnTerminal(
      temp,
      [
        "step",
        first as string,
        second as string,
        third as string,
        "--all",
        "--parallel",
        "2",
        "--agent",
        "batch-worker",
      ],
      { env: { BATCH_HOLD: hold, FAIL_THREADS: failing } },
    );
    await batch.waitForOutput(/2 running · 1 queued · 0 done · 0 failed · \d+s/);
    release(first as string);
    await batch.waitForOutput(/2 running · 0 queued · 1 done · 0 failed/);
    release(third as string);
    await batch.waitForOutput(/1 running · 0 queued · 1 done · 1 failed/);
    release(second as string);
    const { exitCode, output } = await batch.finished;
    expect(exitCode).toBe(1);
    expect(Bun.stripANSI(output)).toContain("0 running · 0 queued · 2 done · 1 failed");
    // Then the status line is gone (each redraw clears its line), and the summary table follows.
    expect(Bun.stripANSI(output)).toMatch(/2 done · 1 failed · \d+s\s*THREAD +STEPS +STATUS/);

    const ci = await runOnTerminal(temp, ["step", first as string, second as string, "--agent", "batch-worker"], {
      env: { CI: "true", BATCH_HOLD: hold },
    });
    expect(ci.output).not.toContain(" running · ");
  });

  it("pages uwf read through $PAGER when it is longer than the screen; --no-pager, a tall screen or a pipe print it", async () => {
    const thread = await answeredThread();
    const piped = await temp.uwf(["read", thread]);
    expect(piped.stdout.split("\n").length).toBeGreaterThan(30);
    const pagedFile = join(temp.work, "paged.md");
    const pager = { PAGER: `cat > '${pagedFile}'; echo paged-by-the-pager` };

    const paged = await runOnTerminal(temp, ["read", thread], { env: pager });
    expect(paged.exitCode).toBe(0);
    expect(paged.output).toContain("paged-by-the-pager");
    expect(paged.output).not.toContain("## Step 1");
    expect(readFileSync(pagedFile, "utf8")).toBe(piped.stdout);

    for (const [args, rows] of [
      [["--no-pager"], 30],
      [[], 200],
    ] as const) {
      const printed = await runOnTerminal(temp, ["read", thread, ...args], { env: pager, rows });
      expect(printed.exitCode).toBe(0);
      expect(printed.output).not.toContain("paged-by-the-pager");
      expect(printed.output).toContain("**The human answered:** The sky's, on a clear day");
    }

    // No PAGER: less -R, quit with q at its first screen; where less is not installed, the text is printed.
    const less = await runOnTerminal(temp, ["read", thread], { input: "q", rows: 10 });
    expect(less.exitCode).toBe(0);
    expect(Bun.stripANSI(less.output)).toContain(`# ask · thread ${thread}`);
    if (Bun.which("less") === null) expect(less.output).toContain("Blue it is.");
    else expect(Bun.stripANSI(less.output)).not.toContain("Blue it is.");
  });
});
