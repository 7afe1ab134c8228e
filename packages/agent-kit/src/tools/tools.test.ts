import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { liveProcessesInGroup, makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import type { ToolContext } from "./agent-tool.ts";
import { runAgentTool } from "./agent-tools.ts";
import { resolveWorkspacePath } from "./resolve-workspace-path.ts";
import { COMMAND_OUTPUT_LIMIT } from "./run-command-tool.ts";

let temp: { path: string; remove: () => void };
let workspace: string;
let context: ToolContext;

beforeEach(() => {
  temp = makeTempDirectory("uwf-tools-test-");
  workspace = join(temp.path, "work");
  mkdirSync(workspace);
  workspace = realpathSync(workspace);
  mkdirSync(join(temp.path, "home"));
  context = {
    workspace,
    env: { thread: "T", role: "r", step: 1, home: join(temp.path, "home") },
    signal: new AbortController().signal,
    deadline: null,
    killGraceMs: 100,
  };
});
afterEach(() => temp.remove());

const call = (name: string, input: Record<string, unknown>) => runAgentTool(name, input, context);

describe("resolveWorkspacePath", () => {
  it("resolves relative and absolute paths inside the workspace, existing or not", async () => {
    expect(await resolveWorkspacePath(workspace, "a/b.txt")).toBe(join(workspace, "a/b.txt"));
    expect(await resolveWorkspacePath(workspace, join(workspace, "c"))).toBe(join(workspace, "c"));
    expect(await resolveWorkspacePath(workspace, ".")).toBe(workspace);
  });

  it("refuses .., absolute paths outside, symlinks out and dangling symlinks", async () => {
    symlinkSync(temp.path, join(workspace, "up"));
    symlinkSync(join(temp.path, "missing"), join(workspace, "dangling"));
    await expect(resolveWorkspacePath(workspace, "../x")).rejects.toThrow("is outside the working directory");
    await expect(resolveWorkspacePath(workspace, "/etc/passwd")).rejects.toThrow("is outside");
    await expect(resolveWorkspacePath(workspace, "up/x/y")).rejects.toThrow("leads through a symlink outside");
    await expect(resolveWorkspacePath(workspace, "dangling")).rejects.toThrow("is a dangling symlink");
    await expect(resolveWorkspacePath(workspace, "")).rejects.toThrow("is empty");
  });

  it("follows symlinks that stay inside", async () => {
    mkdirSync(join(workspace, "real"));
    symlinkSync(join(workspace, "real"), join(workspace, "alias"));
    expect(await resolveWorkspacePath(workspace, "alias/file")).toBe(join(workspace, "real/file"));
  });
});

describe("the file tools", () => {
  it("write, read (with offset and limit) and list files", async () => {
    expect(await call("write_file", { path: "src/a.txt", content: "one\ntwo\nthree\n" })).toEqual({
      content: "wrote 14 bytes to src/a.txt",
      isError: false,
    });
    expect((await call("read_file", { path: "src/a.txt" })).content).toBe("one\ntwo\nthree\n");
    expect((await call("read_file", { path: "src/a.txt", offset: 2, limit: 1 })).content).toBe("two");
    mkdirSync(join(workspace, "node_modules/x"), { recursive: true });
    expect((await call("list_files", {})).content).toBe("node_modules/\nsrc/");
    expect((await call("list_files", { recursive: true })).content).toBe("node_modules/\nsrc/\nsrc/a.txt");
  });

  it("edit_file replaces exactly one match and refuses zero or several", async () => {
    writeFileSync(join(workspace, "f.txt"), "a = 1\nb = 1\nprice $1\n");
    expect(await call("edit_file", { path: "f.txt", old_text: "b = 1", new_text: "b = $&2" })).toEqual({
      content: "edited f.txt: replaced 1 occurrence",
      isError: false,
    });
    expect(readFileSync(join(workspace, "f.txt"), "utf8")).toBe("a = 1\nb = $&2\nprice $1\n");
    expect(await call("edit_file", { path: "f.txt", old_text: "= 9", new_text: "x" })).toEqual({
      content: "old_text was not found in f.txt; read the file and copy the text exactly",
      isError: true,
    });
    expect(await call("edit_file", { path: "f.txt", old_text: " = ", new_text: "=" })).toEqual({
      content: "old_text occurs 2 times in f.txt; include more surrounding text so it matches exactly once",
      isError: true,
    });
  });

  it("search_files finds lines by regular expression, optionally by glob", async () => {
    await call("write_file", { path: "a.ts", content: "const x = 1;\n// TODO fix\n" });
    await call("write_file", { path: "docs/b.md", content: "TODO write docs\n" });
    expect((await call("search_files", { pattern: "TODO" })).content).toBe(
      "a.ts:2: // TODO fix\ndocs/b.md:1: TODO write docs",
    );
    expect((await call("search_files", { pattern: "TODO", glob: "**/*.md" })).content).toBe(
      "docs/b.md:1: TODO write docs",
    );
    expect((await call("search_files", { pattern: "nothing" })).content).toBe("no matches");
    expect((await call("search_files", { pattern: "(" })).isError).toBe(true);
  });

  it("reports bad input and unknown tools as errors for the model", async () => {
    expect(await call("write_file", { path: 3 })).toEqual({ content: '"path" must be a string', isError: true });
    expect((await call("delete_everything", {})).content).toStartWith('unknown tool "delete_everything"');
  });
});

describe("run_command", () => {
  it("runs in the workspace and returns the exit code and the combined output", async () => {
    const result = await call("run_command", { command: "pwd; echo oops >&2; exit 3" });
    expect(result).toEqual({ content: `exit code 3\n${workspace}\noops`, isError: false });
  });

  it("keeps the last part of long output", async () => {
    const result = await call("run_command", { command: "seq 1 20000" });
    expect(result.content.slice(0, 80)).toStartWith(
      `exit code 0\n[output cut: showing the last ${COMMAND_OUTPUT_LIMIT} of`,
    );
    expect(result.content).toEndWith("\n20000");
  });

  it("returns when a command exits leaving a server in the background, with its exit code, and stops the server", async () => {
    const result = await call("run_command", {
      command: "echo $$ > leader; sleep 300 & echo serving",
      timeout_seconds: 60,
    });
    expect(result).toEqual({ content: "exit code 0\nserving", isError: false });
    const leader = Number(readFileSync(join(workspace, "leader"), "utf8"));
    await waitFor(() => liveProcessesInGroup(leader).length === 0, { what: `process group ${leader} ending` });
  });

  it("stops a command at its timeout, with everything it started", async () => {
    const result = await call("run_command", {
      command: "echo $$ > leader; sleep 20 & sleep 20",
      timeout_seconds: 0.3,
    });
    expect(result.isError).toBe(true);
    expect(result.content).toStartWith("the command timed out after 1 s");
    const leader = Number(readFileSync(join(workspace, "leader"), "utf8"));
    await waitFor(() => liveProcessesInGroup(leader).length === 0, { what: `process group ${leader} ending` });
  });
});
