import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { liveProcessesInGroup } from "../../test/fixtures/agents/fixtures.ts";
import { extractFrontmatter } from "../extract/extract-frontmatter.ts";
import { type AgentRunFixture, createAgentRunFixture } from "../test/index.ts";
import { type RunShellAgentOptions, runShellAgent } from "./shell-agent.ts";

let fixture: AgentRunFixture;
beforeEach(() => {
  fixture = createAgentRunFixture();
});
afterEach(() => fixture.remove());

function run(command: string, extra: Partial<RunShellAgentOptions> = {}) {
  return runShellAgent({ spec: { builtin: "shell", run: command }, ...fixture.context, ...extra });
}

const schema = { properties: { exitCode: { type: ["integer", "null"] } } };

describe("runShellAgent", () => {
  it("reports $status pass, the exit code and the output as a fenced body", async () => {
    const result = await run("echo out; echo err >&2");
    expect(result).toMatchObject({
      exitCode: 0,
      error: null,
      command: ["sh", "-c", "exec 2>&1\necho out; echo err >&2"],
    });
    expect(result.reply).toBe("---\n$status: pass\nexitCode: 0\n---\n\nOutput:\n\n```text\nout\nerr\n```\n");
    expect(result.stderrTail).toBe("out\nerr\n");
    expect(extractFrontmatter(result.reply, schema)).toMatchObject({
      fields: { $status: "pass", exitCode: 0 },
    });
  });

  it("reports a non-zero exit as $status fail, not as a failed launch", async () => {
    const result = await run("echo broken; exit 4");
    expect(result.error).toBeNull();
    expect(result.exitCode).toBe(4);
    expect(result.reply).toStartWith("---\n$status: fail\nexitCode: 4\n---\n");
  });

  it("keeps the last `tail` characters of a long output and says so", async () => {
    const result = await runShellAgent({ ...fixture.context, spec: { builtin: "shell", run: "seq 1 1000", tail: 10 } });
    expect(result.reply).toContain("The last 10 of 3893 characters of output:\n\n```text\n\n999\n1000\n```");
  });

  it("runs in the thread's cwd with the UWF_* variables and the prompt in a file", async () => {
    const result = await run('pwd; echo "$UWF_ROLE $UWF_STEP"; cat "$UWF_PROMPT_FILE"; echo; cat');
    expect(result.reply).toContain(`${fixture.cwd}\nwriter 3\nthe prompt\n`);
  });

  it("fails on timeout and leaves no process of its group behind", async () => {
    const pidFile = join(fixture.cwd, "pid");
    const result = await run(`sleep 30 & echo $$ > ${pidFile}; wait`, { timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, error: "the shell command timed out after 300 ms" });
    expect(result.reply).toStartWith("---\n$status: fail\nexitCode: null\n---\n");
    expect(existsSync(pidFile)).toBe(true);
    expect(liveProcessesInGroup(Number(readFileSync(pidFile, "utf8")))).toEqual([]);
  });

  it("keeps its result when it leaves a server running in the background, stopping the server", async () => {
    const pidFile = join(fixture.cwd, "server.pid");
    const result = await run(`sleep 300 & echo $! > ${pidFile}; echo checks passed`);
    expect(result).toMatchObject({ exitCode: 0, error: null, timedOut: false });
    expect(result.reply).toBe("---\n$status: pass\nexitCode: 0\n---\n\nOutput:\n\n```text\nchecks passed\n```\n");
    await waitFor(() => !isProcessAlive(Number(readFileSync(pidFile, "utf8"))), { what: "the server stopping" });
  });

  it("keeps stdout and stderr lines in the order they were written", async () => {
    const result = await run("for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done");
    expect(result.reply).toContain("out1\nerr1\nout2\nerr2\nout3\nerr3\nout4\nerr4\nout5\nerr5\n");
  });

  it("streams its combined output to onStderr", async () => {
    const chunks: string[] = [];
    await run("echo one; echo two >&2", { onStderr: (chunk) => chunks.push(chunk) });
    expect(chunks.join("")).toBe("one\ntwo\n");
  });

  it("says when there was no output", async () => {
    expect((await run("true")).reply).toBe("---\n$status: pass\nexitCode: 0\n---\n\n(no output)\n");
  });
});
