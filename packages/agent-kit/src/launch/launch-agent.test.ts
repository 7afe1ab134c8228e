import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema } from "@uwf/protocol";
import { fixturePath } from "../../test/fixtures/agents/fixtures.ts";
import { type AgentRunFixture, createAgentRunFixture } from "../test/index.ts";
import { type LaunchAgentOptions, launchAgent } from "./launch-agent.ts";

let fixture: AgentRunFixture;
beforeEach(() => {
  fixture = createAgentRunFixture({ env: { role: "reviewer", step: 2 } });
  writeFileSync(
    join(fixture.cwd, "scenario.yaml"),
    "steps:\n  - role: writer\n    output: { summary: s }\n  - role: reviewer\n    output: { approved: true }\n",
  );
});
afterEach(() => fixture.remove());

function launch(spec: LaunchAgentOptions["spec"], extra: Partial<LaunchAgentOptions> = {}) {
  return launchAgent({ spec, alias: "test", ...fixture.context, prompt: "prompt", ...extra });
}

describe("launchAgent", () => {
  it("runs a command agent", async () => {
    const result = await launch({ command: fixturePath("echo-frontmatter.sh"), args: [] });
    expect(result.reply).toBe("---\nsummary: echoed 6 characters\n---\n\nprompt\n");
  });

  it("tells onSpawn the pid of each program it starts (the leader of the agent's process group)", async () => {
    for (const spec of [
      { command: "sh", args: ["-c", "cat >/dev/null; echo $$"] },
      { builtin: "shell" as const, run: "echo $$" },
    ]) {
      const spawned: number[] = [];
      const result = await launch(spec, { onSpawn: (pid) => spawned.push(pid) });
      expect(spawned).toEqual([Number(result.reply.match(/^(\d+)$/m)?.[1])]);
    }
  });

  it("runs the scripted built-in at the step's index and role by default", async () => {
    const result = await launch({ builtin: "scripted", scenario: "scenario.yaml" });
    expect(result).toMatchObject({ error: null, reply: "---\napproved: true\n---\n" });
  });

  it("passes the scenario context to the scripted built-in", async () => {
    const result = await launch(
      { builtin: "scripted", scenario: "scenario.yaml" },
      { cwd: "/", scenario: { stepIndex: 0, routedRole: "reviewer", baseDir: fixture.cwd } },
    );
    expect(result.error).toStartWith("scenario step 1 expects role writer but the moderator chose reviewer");
  });

  it("runs the shell built-in", async () => {
    const result = await launch({ builtin: "shell", run: "echo hi" });
    expect(result.reply).toStartWith("---\n$status: pass\nexitCode: 0\n---\n");
  });

  it("runs the anthropic built-in, failing as data when no key is set", async () => {
    const result = await launch(
      { builtin: "anthropic" },
      { config: configSchema.parse({ providers: { anthropic: { apiKeyEnv: "UWF_TEST_KEY_THAT_IS_NEVER_SET" } } }) },
    );
    expect(result.error).toStartWith('no API key for provider "anthropic": UWF_TEST_KEY_THAT_IS_NEVER_SET is not set');
  });

  it("runs the claude-code preset, failing as data when the program is missing", async () => {
    const result = await launch({ preset: "claude-code", command: join(fixture.cwd, "no-such-claude") });
    expect(result.error).toStartWith("Claude Code could not be started");
    expect(result.command?.slice(1, 5)).toEqual(["-p", "--output-format", "stream-json", "--verbose"]);
  });
});

describe("the @uwf/agent-kit entry", () => {
  it("loads neither a JSON Schema validator nor the Anthropic SDK until they are needed", () => {
    const script = [
      `const kit = await import(${JSON.stringify(join(import.meta.dir, "..", "index.ts"))});`,
      "const loaded = (name) => Object.keys(require.cache).some((key) => key.includes('/node_modules/' + name + '/'));",
      "const before = [loaded('ajv'), loaded('@cfworker/json-schema'), loaded('@anthropic-ai/sdk')];",
      'kit.extractFrontmatter("---\\na: 1\\n---\\n", { properties: { a: { type: "integer" } } });',
      "console.log(JSON.stringify({ before, validatorAfter: loaded('@cfworker/json-schema'), ajvAfter: loaded('ajv') }));",
    ].join("\n");
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    // Replies are checked by the light interpreting validator; Ajv is only for loading workflows.
    expect(JSON.parse(run.stdout)).toEqual({
      before: [false, false, false],
      validatorAfter: true,
      ajvAfter: false,
    });
  });
});
