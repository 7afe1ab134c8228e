import { describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { FIXTURES, LINEAR, useTempHome } from "../../helpers/temp-home.ts";
import { startOnTerminal } from "../../helpers/terminal.ts";

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      ["agents:", "  sleepy:", "    command: sh", `    args: ["${join(FIXTURES, "agents/sleepy.sh")}"]`].join("\n"),
    ),
});

describe("Ctrl-C on a terminal", () => {
  it("stops the step with exit 130 and leaves the interrupted line, with its run, below the status line", async () => {
    const thread = await temp.startThread(LINEAR);
    const before = await temp.showThread(thread);
    const pidFile = join(temp.work, "agent.pid");
    const terminal = startOnTerminal(temp, ["step", thread, "--agent", "sleepy"], {
      env: { NO_COLOR: "1", PID_FILE: pidFile },
      sized: false,
      interactive: true,
    });
    await waitFor(() => existsSync(pidFile), { what: "the agent writing its pid", timeoutMs: 30_000 });
    terminal.type("\x03");
    const { exitCode, output: screen } = await terminal.finished;

    expect(exitCode).toBe(130);
    // The last thing on the screen, after the status line was cleared: the message naming the run.
    const ERASE_LINE = "\u001b[0K";
    const lastLine = screen
      .trimEnd()
      .split(/\r?\n|\r/)
      .at(-1)
      ?.split(ERASE_LINE)
      .at(-1);
    expect(lastLine).toMatch(
      /^uwf: interrupted by SIGINT; the thread is unchanged; what the agent had written is kept in run [0-9A-Z]{13}$/,
    );
    const run = /kept in run ([0-9A-Z]{13})/.exec(screen)?.[1] as string;
    expect((await temp.uwf(["show", run, "--reply"])).stdout).toContain("partial output before the wait");
    expect(isProcessAlive(Number(readFileSync(`${pidFile}.child`, "utf8")))).toBe(false);
    expect(await temp.showThread(thread)).toEqual(before);
  }, 60_000);
});
