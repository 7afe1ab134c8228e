import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, statSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import { type FakeAnthropicServer, fakeTextReply, startFakeAnthropicServer } from "@uwf/agent-kit/test";
import { configSchema } from "@uwf/protocol";
import { parse } from "yaml";
import { claudeCodeCli } from "../../helpers/claude-code-cli.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

const KEY = "test-key-not-secret";
/** The real `claude` CLI, installed for these tests on first use (see claude-code-cli.ts). */
const CLAUDE = claudeCodeCli();
const KEY_VARIABLE = "UWF_E2E_SETUP_KEY";

let temp: TempHome;
let server: FakeAnthropicServer;
beforeEach(() => {
  temp = createTempHome();
  server = startFakeAnthropicServer({ apiKey: KEY });
});
afterEach(async () => {
  await server.close();
  temp.cleanup();
});

function readConfig() {
  return configSchema.parse(parse(readFileSync(join(temp.home, "config.yaml"), "utf8")));
}

const flags = () => ["setup", "--provider", "fake", "--base-url", server.url, "--api-key-env", KEY_VARIABLE];

describe("uwf setup", () => {
  it("writes the provider, model and agent, stores a key given directly in .env (0600), verifies it and never prints it", async () => {
    const setup = await temp.uwf([...flags(), "--api-key", KEY, "--model", "claude-haiku-4-5", "--json"]);
    expect(setup.stderr).toBe("");
    expect(setup.exitCode).toBe(0);
    expect(setup.json()).toEqual({
      configFile: join(temp.home, "config.yaml"),
      provider: "fake",
      baseUrl: server.url,
      apiKeyEnv: KEY_VARIABLE,
      keySource: "dotenv",
      dotenvFile: join(temp.home, ".env"),
      model: "claude-haiku-4-5",
      agent: "anthropic",
      verified: true,
    });
    expect(setup.stdout).not.toContain(KEY);

    const config = readConfig();
    expect(config.providers.fake).toEqual({ type: "anthropic", baseUrl: server.url, apiKeyEnv: KEY_VARIABLE });
    expect(config.models["claude-haiku-4-5"]).toEqual({ provider: "fake", model: "claude-haiku-4-5" });
    expect(config.defaultModel).toBe("claude-haiku-4-5");
    expect(config.agents.anthropic).toEqual({ builtin: "anthropic" });
    expect(config.defaultAgent).toBe("anthropic");
    expect(readFileSync(join(temp.home, "config.yaml"), "utf8")).not.toContain(KEY);

    const dotenv = join(temp.home, ".env");
    expect(statSync(dotenv).mode & 0o777).toBe(0o600);
    expect(readFileSync(dotenv, "utf8")).toBe(`${KEY_VARIABLE}="${KEY}"\n`);

    // One minimal request checked the key.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 1 });
    expect(server.requests[0]?.hasApiKey).toBe(true);

    const human = await temp.uwf([...flags(), "--api-key", KEY, "--no-verify"]);
    expect(human.stdout).toContain(`key       in ${KEY_VARIABLE}, stored in ${dotenv} (mode 0600)`);
    expect(human.stdout + human.stderr).not.toContain(KEY);
    const listed = await temp.uwf(["config", "list"]);
    expect(listed.stdout).toContain("providers.fake.apiKeyEnv");
    expect(listed.stdout).not.toContain(KEY);
  });

  it("lets the built-in agent use the key stored in .env when the variable is not set", async () => {
    const setup = await temp.uwf([...flags(), "--api-key", "-", "--no-verify"], { stdin: `${KEY}\n` });
    expect(setup.exitCode).toBe(0);
    server.enqueue(fakeTextReply("---\nplan: do it\n---\n"), fakeTextReply("---\ndone: true\n---\n"));
    const run = await temp.uwf(["run", join(FIXTURES, "workflows/linear.yaml"), "-p", "Go", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect((run.json() as { status: string }).status).toBe("ended");
    expect(server.requests.every((request) => request.hasApiKey && request.status === 200)).toBe(true);
  });

  it("fails with the reason when the key is refused, after writing the config", async () => {
    const setup = await temp.uwf([...flags(), "--api-key", "wrong-key-123"]);
    expect(setup.exitCode).toBe(1);
    expect(setup.stderr).toContain(`the API key in ${KEY_VARIABLE} was refused by provider "fake"`);
    expect(setup.stderr).toContain("--no-verify");
    expect(setup.stderr).not.toContain("wrong-key-123");
    expect(readConfig().defaultAgent).toBe("anthropic");
  });

  it("warns about a missing key with --no-verify and makes no request", async () => {
    const setup = await temp.uwf([...flags(), "--no-verify", "--json"]);
    expect(setup.exitCode).toBe(0);
    expect(setup.stderr).toContain(`${KEY_VARIABLE} is not set`);
    expect(setup.json()).toMatchObject({ keySource: "missing", verified: null, agent: "anthropic" });
    expect(existsSync(join(temp.home, ".env"))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("writes config.yaml once, with every setting, keeping what the file already held", async () => {
    temp.writeConfig("# mine\nretries: 4\n");
    const replaced: string[] = [];
    const watcher = watch(temp.home, (event, name) => {
      if (event === "rename" && name === "config.yaml") replaced.push(name);
    });
    try {
      const setup = await temp.uwf([...flags(), "--model", "claude-haiku-4-5", "--no-verify"]);
      expect(setup.exitCode).toBe(0);
      const deadline = Date.now() + 2000;
      while (replaced.length === 0 && Date.now() < deadline) await Bun.sleep(10);
      await Bun.sleep(50);
      expect(replaced).toEqual(["config.yaml"]);
    } finally {
      watcher.close();
    }
    expect(readFileSync(join(temp.home, "config.yaml"), "utf8")).toStartWith("# mine\n");
    const config = readConfig();
    expect(config.retries).toBe(4);
    expect(config).toMatchObject({ defaultAgent: "anthropic", defaultModel: "claude-haiku-4-5" });
  });

  it("makes Claude Code the default agent after checking that claude runs, asking about no provider or key", async () => {
    // `claude` from PATH, and no key anywhere: Claude Code signs in on its own.
    const env = { PATH: `${dirname(CLAUDE)}:${process.env.PATH ?? ""}`, ANTHROPIC_API_KEY: "" };
    const setup = await temp.uwf(["setup", "--agent", "claude-code", "--json"], { env });
    expect(setup.stderr).toBe("");
    expect(setup.exitCode).toBe(0);
    const result = setup.json<Record<string, unknown>>();
    expect(result).toEqual({
      configFile: join(temp.home, "config.yaml"),
      agent: "claude-code",
      command: "claude",
      model: null,
      version: result.version,
      verified: true,
    });
    expect(result.version).toMatch(/^\d+\.\d+\.\d+ \(Claude Code\)$/);
    const config = readConfig();
    expect(config.agents["claude-code"]).toEqual({ preset: "claude-code" });
    expect(config.defaultAgent).toBe("claude-code");
    expect(config.providers).toEqual({});
    expect(server.requests).toHaveLength(0);

    const human = await temp.uwf(["setup", "--agent", "claude-code"], { env });
    expect(human.stdout).toContain(`Claude Code runs: ${result.version}.`);
    expect(human.stdout).toContain("Claude Code signs in on its own");
  });

  it("keeps a configured Claude Code's command, sets its model, and fails with the fix when it cannot run", async () => {
    temp.writeConfig("agents:\n  claude-code: { preset: claude-code, command: /nowhere/claude, args: [--verbose] }\n");
    const setup = await temp.uwf(["setup", "--agent", "claude-code", "--model", "opus"]);
    expect(setup.exitCode).toBe(1);
    expect(setup.stderr).toContain("cannot run Claude Code: /nowhere/claude --version could not be started");
    expect(setup.stderr).toContain("fix agents.claude-code.command");
    expect(setup.stderr).toContain("--no-verify");
    const config = readConfig();
    expect(config.agents["claude-code"]).toEqual({
      preset: "claude-code",
      command: "/nowhere/claude",
      args: ["--verbose"],
      model: "opus",
    });
    expect(config.defaultAgent).toBe("claude-code");

    const unchecked = await temp.uwf(["setup", "--agent", "claude-code", "--no-verify", "--json"]);
    expect(unchecked.exitCode).toBe(0);
    expect(unchecked.json()).toMatchObject({
      command: "/nowhere/claude",
      model: "opus",
      version: null,
      verified: null,
    });
  });

  it("refuses provider flags with --agent claude-code as a usage error", async () => {
    const setup = await temp.uwf([...flags(), "--agent", "claude-code", "--no-verify"]);
    expect(setup.exitCode).toBe(2);
    expect(setup.stderr).toContain("Claude Code signs in on its own");
    expect(existsSync(join(temp.home, "config.yaml"))).toBe(false);
  });

  it("without a terminal and without its flags, exits 2 naming the flags and writes nothing", async () => {
    for (const args of [["setup"], ["setup", "--no-verify"], ["setup", "--json"]]) {
      const setup = await temp.uwf(args, { stdin: "" });
      expect({ args, exitCode: setup.exitCode, stdout: setup.stdout }).toEqual({ args, exitCode: 2, stdout: "" });
      for (const flag of ["--agent", "--provider", "--api-key-env", "--api-key", "--model"]) {
        expect(setup.stderr + setup.stdout).toContain(flag);
      }
    }
    expect((await temp.uwf(["setup"])).stderr).toStartWith("uwf: uwf setup asks its questions on a terminal;");
    expect(existsSync(join(temp.home, "config.yaml"))).toBe(false);
  });

  it("refuses a bad agent or variable name as a usage error", async () => {
    expect((await temp.uwf(["setup", "--agent", "gpt", "--no-verify"])).exitCode).toBe(2);
    expect((await temp.uwf(["setup", "--api-key-env", "not a name", "--no-verify"])).exitCode).toBe(2);
  });
});
