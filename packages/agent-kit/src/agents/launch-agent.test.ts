import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturePath, makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { AgentUnavailableError } from "./agent-unavailable-error.ts";
import { type LaunchAgentOptions, launchAgent } from "./launch-agent.ts";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory();
  writeFileSync(
    join(temp.path, "scenario.yaml"),
    "steps:\n  - role: writer\n    output: { summary: s }\n  - role: reviewer\n    output: { approved: true }\n",
  );
});
afterEach(() => temp.remove());

function launch(spec: LaunchAgentOptions["spec"], extra: Partial<LaunchAgentOptions> = {}) {
  return launchAgent({
    spec,
    alias: "test",
    prompt: "prompt",
    cwd: temp.path,
    env: { thread: "T", role: "reviewer", step: 2, home: "/h" },
    timeoutMs: 10_000,
    ...extra,
  });
}

describe("launchAgent", () => {
  it("runs a command agent", async () => {
    const result = await launch({ command: fixturePath("echo-frontmatter.sh"), args: [] });
    expect(result.reply).toBe("---\nsummary: echoed 6 characters\n---\n\nprompt\n");
  });

  it("runs the scripted built-in at the step's index and role by default", async () => {
    const result = await launch({ builtin: "scripted", scenario: "scenario.yaml" });
    expect(result).toMatchObject({ error: null, reply: "---\napproved: true\n---\n" });
  });

  it("passes the scenario context to the scripted built-in", async () => {
    const result = await launch(
      { builtin: "scripted", scenario: "scenario.yaml" },
      { cwd: "/", scenario: { stepIndex: 0, routedRole: "reviewer", baseDir: temp.path } },
    );
    expect(result.error).toStartWith("scenario step 1 expects role writer but the moderator chose reviewer");
  });

  it("runs the shell built-in", async () => {
    const result = await launch({ builtin: "shell", run: "echo hi" });
    expect(result.reply).toStartWith("---\n$status: pass\nexitCode: 0\n---\n");
  });

  it("refuses agents that are not available yet with a typed error", async () => {
    await expect(launch({ builtin: "anthropic" }, { alias: "sonnet" })).rejects.toThrow(AgentUnavailableError);
    await expect(launch({ preset: "claude-code" }, { alias: "cc" })).rejects.toThrow(
      'agent "cc" is a claude-code preset agent, which this version of uwf cannot run yet',
    );
  });
});

describe("the agent-kit entry", () => {
  it("loads neither execa nor ajv until an agent is launched or a reply validated", () => {
    const script = [
      `const kit = await import(${JSON.stringify(join(import.meta.dir, "..", "index.ts"))});`,
      "const loaded = (name) => Object.keys(require.cache).some((key) => key.includes('/node_modules/' + name + '/'));",
      "const before = [loaded('execa'), loaded('ajv')];",
      'kit.extractFrontmatter("---\\na: 1\\n---\\n", { properties: { a: { type: "integer" } } });',
      "console.log(JSON.stringify({ before, ajvAfter: loaded('ajv') }));",
    ].join("\n");
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ before: [false, false], ajvAfter: true });
  });
});
