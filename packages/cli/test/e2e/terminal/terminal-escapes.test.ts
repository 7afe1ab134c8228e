import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { FIXTURES, LINEAR, useTempHome } from "../../helpers/temp-home.ts";
import { runOnBareTerminal, terminalSkipReason } from "../../helpers/terminal.ts";

/**
 * What an agent writes is shown escaped on a terminal (`\x1b`), so a reply cannot clear the screen or
 * set the clipboard, and raw when stdout is piped and under `--json`. The terminal is a real
 * pseudo-terminal: util-linux `script` runs uwf on one and copies what it printed.
 */

const AGENT = join(FIXTURES, "agents/terminal-escapes.sh");
const RAW = ["\x1b[2J", "\x1b]52;c;aGk=\x07", "\x1b]0;title\x07"];
const ESCAPED = ["\\x1b[2J", "\\x1b]52;c;aGk=\\x07", "\\x1b]0;title\\x07"];

const scriptRefusal = terminalSkipReason();
if (scriptRefusal !== null) console.warn(`terminal-escapes: skipping the terminal tests: ${scriptRefusal}`);

const temp = useTempHome({
  setUp: (home) => home.writeConfig(["agents:", "  escapes:", `    command: "${AGENT}"`].join("\n")),
});

/** Runs uwf on a pseudo-terminal (stdout and stderr both); what it printed, with the terminal's \r\n as \n. */
function uwfOnTerminal(args: string[], env: Record<string, string> = {}) {
  return runOnBareTerminal(temp, args, { NO_COLOR: "1", HOME: temp.work, ...env });
}

async function steppedThread(): Promise<{ thread: string; step: string }> {
  const thread = await temp.startThread(LINEAR);
  const stepped = await temp.uwf(["step", thread, "--agent", "escapes", "--json"]);
  expect(stepped.exitCode).toBe(0);
  return { thread, step: (stepped.json() as { head: string }).head };
}

describe.skipIf(scriptRefusal !== null)("text an agent wrote", () => {
  it("is shown escaped on a terminal by read and show, and raw when piped or under --json", async () => {
    const { thread, step } = await steppedThread();
    for (const args of [
      ["read", thread, "--no-pager"], // read pages a long transcript on a terminal (its pager gets the escaped text)
      ["show", step],
      ["show", step, "--reply"],
    ]) {
      const shown = await uwfOnTerminal(args);
      expect({ args, exitCode: shown.exitCode }).toEqual({ args, exitCode: 0 });
      expect(shown.output).not.toContain("\x1b");
      expect(shown.output).not.toContain("\x07");
      expect(shown.output).toContain("\\x1b[2J\\x1b]52;c;aGk=\\x07Planned.");
      // Newlines and the text around the escapes are kept.
      expect(shown.output).toContain("Planned.\n");
    }
    const run = await uwfOnTerminal(["show", step]);
    expect(run.output).toContain(ESCAPED[2] as string); // the agent's stderr tail
    expect(run.output).toContain("red\\x1b[31m"); // an output field

    const piped = await temp.uwf(["read", thread]);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toContain(`${RAW[0]}${RAW[1]}Planned.\n`);
    const json = await uwfOnTerminal(["show", step, "--json"]);
    expect(json.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(json.output))).toContain(JSON.stringify(RAW[1]).slice(1, -1));
  }, 60_000);

  it("is escaped in a failed step's one-line error and in -v on a terminal", async () => {
    const thread = await temp.startThread(LINEAR);
    const failed = await uwfOnTerminal(["step", thread, "--agent", "escapes", "-v"], { UWF_FAIL: "1" });
    expect(failed.exitCode).toBe(1);
    // The status line draws with escapes of its own; the agent's are shown, not sent.
    expect(failed.output).not.toContain(RAW[2] as string);
    expect(failed.output).toContain(`\x1b[0Kstderr ${ESCAPED[2]} line\n`); // -v, after the status line is cleared
    expect(failed.output).toContain(`the agent exited with code 1: stderr ${ESCAPED[2]} line`);
    const piped = await temp.uwf(["step", thread, "--agent", "escapes"], { env: { UWF_FAIL: "1" } });
    expect(piped.exitCode).toBe(1);
    expect(piped.stderr).toContain(RAW[2] as string);
  }, 60_000);
});
