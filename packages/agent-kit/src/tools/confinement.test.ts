import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { linkSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import type { ToolContext } from "./agent-tool.ts";
import { runAgentTool } from "./agent-tools.ts";

const KEY = "sk-ant-test-not-a-key-0123456789";
const OTHER_KEY = "gateway-test-not-a-key-9876543210";

let temp: { path: string; remove: () => void };
let workspace: string;
let home: string;
let context: ToolContext;

// The layout `uwf setup` makes in a project: the home `.uwf/` inside the thread's cwd, its `.env` holding the key.
beforeEach(() => {
  temp = makeTempDirectory("uwf-confinement-test-");
  workspace = realpathSync(temp.path);
  home = join(workspace, ".uwf");
  mkdirSync(join(home, "objects"), { recursive: true });
  writeFileSync(join(home, ".env"), `ANTHROPIC_API_KEY="${KEY}"\n`, { mode: 0o600 });
  writeFileSync(join(home, "config.yaml"), "defaultAgent: model\n");
  context = {
    workspace,
    env: { thread: "T", role: "r", step: 1, home },
    signal: new AbortController().signal,
    deadline: null,
    killGraceMs: 100,
  };
});
afterEach(() => temp.remove());

const call = (name: string, input: Record<string, unknown>) => runAgentTool(name, input, context);

describe("the file tools and the uwf home", () => {
  it("refuse every path in the home, however it is written", async () => {
    symlinkSync(home, join(workspace, "alias"));
    for (const path of [".uwf/.env", ".uwf", "./x/../.uwf/config.yaml", join(home, ".env"), "alias/.env"]) {
      const result = await call("read_file", { path });
      expect(result).toEqual({ content: expect.stringContaining("is in the uwf home") as string, isError: true });
    }
    expect((await call("write_file", { path: ".uwf/config.yaml", content: "x" })).content).toContain("uwf home");
    expect((await call("edit_file", { path: ".uwf/.env", old_text: "A", new_text: "B" })).isError).toBe(true);
    expect((await call("list_files", { path: ".uwf" })).content).toContain("uwf home");
    expect((await call("search_files", { pattern: "sk-", path: ".uwf" })).content).toContain("uwf home");
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe("defaultAgent: model\n");
  });

  it("do not enter the home when it is not named .uwf", async () => {
    const elsewhere = join(workspace, "my-home");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, ".env"), `ANTHROPIC_API_KEY=${KEY}\n`);
    writeFileSync(join(workspace, "notes.txt"), "ANTHROPIC_API_KEY is read from the environment\n");
    context = { ...context, env: { ...context.env, home: elsewhere } };
    expect((await call("list_files", { recursive: true })).content).not.toContain("my-home/.env");
    const search = await call("search_files", { pattern: "ANTHROPIC_API_KEY" });
    expect(search.content).toBe("notes.txt:1: ANTHROPIC_API_KEY is read from the environment");
  });

  it("refuse a hard link to the home's .env", async () => {
    linkSync(join(home, ".env"), join(workspace, "innocent.txt"));
    const result = await call("read_file", { path: "innocent.txt" });
    expect(result).toEqual({
      content: "refused: innocent.txt is a hard link to the uwf home's .env, which holds the API keys",
      isError: true,
    });
    expect((await call("search_files", { pattern: "sk-" })).content).toBe("no matches");
  });
});

describe("the file tools and special files", () => {
  it("refuse to write through a hard link, leaving the file it shares unchanged", async () => {
    const outside = join(temp.path, "..", `${temp.path.split("/").at(-1)}-outside.txt`);
    writeFileSync(outside, "outside\n");
    try {
      linkSync(outside, join(workspace, "linked.txt"));
      const written = await call("write_file", { path: "linked.txt", content: "pwned\n" });
      expect(written.isError).toBe(true);
      expect(written.content).toStartWith("refused: linked.txt has 2 hard links");
      const edited = await call("edit_file", { path: "linked.txt", old_text: "outside", new_text: "pwned" });
      expect(edited.content).toStartWith("refused: linked.txt has 2 hard links");
      expect(readFileSync(outside, "utf8")).toBe("outside\n");
      // Reading is allowed: package managers hard-link files into node_modules.
      expect((await call("read_file", { path: "linked.txt" })).content).toBe("outside\n");
    } finally {
      Bun.spawnSync(["rm", "-f", outside]);
    }
  });

  it("refuse FIFOs at once instead of waiting for a writer", async () => {
    // A tool that waited for a writer would never return.
    Bun.spawnSync(["mkfifo", join(workspace, "pipe")]);
    expect(await call("read_file", { path: "pipe" })).toEqual({
      content: "refused: pipe is a FIFO, not a regular file",
      isError: true,
    });
    expect((await call("write_file", { path: "pipe", content: "x" })).content).toBe(
      "refused: pipe is a FIFO or a socket, not a regular file",
    );
    expect((await call("edit_file", { path: "pipe", old_text: "a", new_text: "b" })).content).toBe(
      "refused: pipe is a FIFO, not a regular file",
    );
    expect((await call("search_files", { pattern: "x", path: "pipe" })).content).toBe(
      "refused: pipe is a FIFO, not a regular file",
    );
    expect((await call("search_files", { pattern: "x" })).content).toBe("no matches");
  });
});

describe("run_command and secrets", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "GATEWAY_TOKEN", "UWF_HOME"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("runs without provider keys and UWF_HOME unless the agent passes a key", async () => {
    process.env.ANTHROPIC_API_KEY = KEY;
    process.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9";
    process.env.OPENAI_API_KEY = "openai-test-not-a-key";
    process.env.GATEWAY_TOKEN = OTHER_KEY;
    process.env.UWF_HOME = home;
    context = { ...context, keyVariables: ["GATEWAY_TOKEN"] };
    const names = async () => (await call("run_command", { command: "env | cut -d= -f1 | sort" })).content.split("\n");
    const hidden = await names();
    for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "GATEWAY_TOKEN", "UWF_HOME"]) {
      expect(hidden).not.toContain(name);
    }
    expect(hidden).toContain("UWF_THREAD");
    expect(hidden).toContain("PATH");

    context = { ...context, passEnv: ["GATEWAY_TOKEN"] };
    expect(await names()).toContain("GATEWAY_TOKEN");
  });

  it("never shows a key in a result, even one a command reads from a file", async () => {
    process.env.GATEWAY_TOKEN = OTHER_KEY;
    context = { ...context, keyVariables: ["GATEWAY_TOKEN"], passEnv: ["GATEWAY_TOKEN"], secretValues: [KEY] };
    const result = await call("run_command", { command: `cat .uwf/.env; echo "$GATEWAY_TOKEN"` });
    expect(result.content).toBe('exit code 0\nANTHROPIC_API_KEY="[redacted]"\n[redacted]');
  });
});
