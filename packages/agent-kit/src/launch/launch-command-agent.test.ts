import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { fixturePath, liveProcessesInGroup } from "../../test/fixtures/agents/fixtures.ts";
import { extractFrontmatter } from "../extract/extract-frontmatter.ts";
import { type AgentRunFixture, createAgentRunFixture } from "../test/index.ts";
import { type LaunchCommandAgentOptions, launchCommandAgent } from "./launch-command-agent.ts";

let fixture: AgentRunFixture;
beforeEach(() => {
  fixture = createAgentRunFixture();
});
afterEach(() => fixture.remove());

function launch(command: string, args: string[] = [], extra: Partial<LaunchCommandAgentOptions> = {}) {
  return launchCommandAgent({ spec: { command, args }, ...fixture.context, ...extra });
}

/** Reads "<leader pid> <child pid>" written by slow.sh, waiting for the file to appear. */
async function readPids(file: string): Promise<[number, number]> {
  await waitFor(() => existsSync(file), { what: `${file} appearing` });
  const [leader, child] = readFileSync(file, "utf8").trim().split(" ").map(Number);
  return [leader ?? 0, child ?? 0];
}

describe("launchCommandAgent", () => {
  it("sends the prompt on stdin and returns stdout as the reply", async () => {
    const result = await launch(fixturePath("echo-frontmatter.sh"), [], { prompt: "Write a haiku." });
    expect(result).toMatchObject({ exitCode: 0, error: null, timedOut: false, interrupted: false, signal: null });
    expect(result.reply).toBe("---\nsummary: echoed 14 characters\n---\n\nWrite a haiku.\n");
    expect(result.command).toEqual([fixturePath("echo-frontmatter.sh")]);
    expect(Date.parse(result.completedAt)).toBeGreaterThanOrEqual(Date.parse(result.startedAt));
  });

  it("sets UWF_* variables, substitutes {placeholders} and runs in the given cwd", async () => {
    const args = ["--thread={thread}", "{role}", "{promptFile}", "{unknown}"];
    const result = await launch(fixturePath("env-dump.sh"), args, {
      spec: { command: fixturePath("env-dump.sh"), args, env: { UWF_TEST_EXTRA: "extra" } },
    });
    const extracted = extractFrontmatter(result.reply, {
      properties: Object.fromEntries(
        ["thread", "role", "step", "home", "promptFile", "promptFileMatchesStdin", "extra", "cwd", "args"].map(
          (name) => [name, {}],
        ),
      ),
    });
    const fields = extracted.fields;
    expect(fields).toMatchObject({
      thread: fixture.env.thread,
      role: "writer",
      step: "3",
      home: fixture.home,
      promptFileMatchesStdin: true,
      extra: "extra",
      cwd: fixture.cwd,
    });
    const promptFile = String(fields.promptFile);
    expect(fields.args).toBe(`--thread=${fixture.env.thread} writer ${promptFile} {unknown}`);
    expect(result.command).toEqual([
      fixturePath("env-dump.sh"),
      `--thread=${fixture.env.thread}`,
      "writer",
      promptFile,
      "{unknown}",
    ]);
    expect(existsSync(promptFile)).toBe(false);
  });

  it("reports a non-zero exit as a failure, keeping stdout and the stderr tail", async () => {
    const result = await launch(fixturePath("exit-nonzero.sh"));
    expect(result.exitCode).toBe(3);
    expect(result.reply).toBe("---\nsummary: half\n");
    expect(result.stderrTail).toBe("first complaint\nsomething went wrong\n");
    expect(result.error).toBe("the agent exited with code 3: something went wrong");
  });

  it("can be launched again after an invalid reply and then give a valid one", async () => {
    const counter = join(fixture.cwd, "count");
    const schema = { properties: { approved: { type: "boolean" } }, required: ["approved"] };
    const first = await launch(fixturePath("invalid-then-valid.sh"), [counter]);
    expect(() => extractFrontmatter(first.reply, schema)).toThrow(
      'field "approved": expected boolean, got string "yes"',
    );
    const second = await launch(fixturePath("invalid-then-valid.sh"), [counter]);
    expect(extractFrontmatter(second.reply, schema)).toEqual({
      fields: { approved: true },
      body: "Looks fine (attempt 2).",
    });
  });

  it("keeps only the last 4 KiB of stderr and streams all of it to onStderr", async () => {
    const chunks: string[] = [];
    const result = await launch(fixturePath("chatty-stderr.sh"), [], { onStderr: (chunk) => chunks.push(chunk) });
    expect(result.error).toBeNull();
    const streamed = chunks.join("");
    expect(streamed).toStartWith("stderr line 1\n");
    expect(streamed).toEndWith("stderr line 1000\n");
    expect(result.stderrTail.length).toBe(4096);
    expect(streamed.endsWith(result.stderrTail)).toBe(true);
  });

  it("returns a 50 MB reply whole", async () => {
    const result = await launch(fixturePath("big-output.sh"));
    expect(result.error).toBeNull();
    expect(result.reply.length).toBe("---\nsummary: big\n---\n".length + 50 * 1024 * 1024 + "\nEND-OF-REPLY\n".length);
    expect(result.reply).toEndWith("a\nEND-OF-REPLY\n");
  });

  it("writes a large prompt to an agent that never reads stdin", async () => {
    const result = await launch("sh", ["-c", "echo ok"], { prompt: "p".repeat(5_000_000) });
    expect(result).toMatchObject({ reply: "ok\n", exitCode: 0, error: null });
  });

  it("kills the whole process group on timeout and keeps what was written", async () => {
    const pids = join(fixture.cwd, "pids");
    const result = await launch(fixturePath("slow.sh"), [pids], { timeoutMs: 300 });
    const [leader, child] = await readPids(pids);
    expect(result).toMatchObject({ timedOut: true, interrupted: false, exitCode: null, signal: "SIGTERM" });
    expect(result.error).toBe("the agent timed out after 300 ms");
    expect(result.reply).toBe("---\nsummary: partial\n---\n");
    expect(child).toBeGreaterThan(0);
    expect(liveProcessesInGroup(leader)).toEqual([]);
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const pids = join(fixture.cwd, "pids");
    const result = await launch(fixturePath("slow.sh"), [pids, "stubborn"], { timeoutMs: 300, killGraceMs: 300 });
    const [leader, child] = await readPids(pids);
    expect(result).toMatchObject({ timedOut: true, interrupted: false, exitCode: null, signal: "SIGKILL" });
    expect(result.error).toBe("the agent timed out after 300 ms");
    // Both ignored SIGTERM; SIGKILL ends them, the child too.
    expect(child).toBeGreaterThan(0);
    await waitFor(() => liveProcessesInGroup(leader).length === 0, { what: `process group ${leader} ending` });
  });

  it("stops the whole process group when the caller aborts, marking the result interrupted", async () => {
    const pids = join(fixture.cwd, "pids");
    const controller = new AbortController();
    const running = launch(fixturePath("slow.sh"), [pids], { signal: controller.signal });
    // slow.sh writes the pids file after its partial reply, so the reply is already on the pipe.
    const [leader] = await readPids(pids);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ interrupted: true, timedOut: false, error: "the agent was interrupted" });
    expect(result.reply).toBe("---\nsummary: partial\n---\n");
    expect(liveProcessesInGroup(leader)).toEqual([]);
  });

  it("does not start an agent when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await launch(fixturePath("echo-frontmatter.sh"), [], { signal: controller.signal });
    expect(result).toMatchObject({ interrupted: true, exitCode: null, reply: "" });
  });

  it("reports a command that cannot be started", async () => {
    const result = await launch(join(fixture.cwd, "no-such-agent"));
    expect(result.exitCode).toBeNull();
    expect(result.error).toStartWith(`the agent could not be started (${join(fixture.cwd, "no-such-agent")}):`);
    expect(result.error).toContain("ENOENT");
  });

  it("reports a working directory that does not exist", async () => {
    const result = await launch(fixturePath("echo-frontmatter.sh"), [], { cwd: join(fixture.directory, "gone") });
    expect(result.error).toBe(`the working directory ${join(fixture.directory, "gone")} does not exist`);
  });
});
