import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { type AgentSpec, configSchema } from "@uwf/protocol";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { buildChildEnvironment, isProviderKeyVariable, providerKeyVariables } from "./child-environment.ts";
import { launchAgent } from "./launch-agent.ts";

const KEY = "sk-ant-test-not-a-key";

describe("isProviderKeyVariable", () => {
  it("matches ANTHROPIC_*, *_API_KEY and the configured names", () => {
    expect(isProviderKeyVariable("ANTHROPIC_API_KEY")).toBe(true);
    expect(isProviderKeyVariable("ANTHROPIC_AUTH_TOKEN")).toBe(true);
    expect(isProviderKeyVariable("OPENAI_API_KEY")).toBe(true);
    expect(isProviderKeyVariable("GATEWAY_TOKEN")).toBe(false);
    expect(isProviderKeyVariable("GATEWAY_TOKEN", ["GATEWAY_TOKEN"])).toBe(true);
    expect(isProviderKeyVariable("PATH")).toBe(false);
  });
});

describe("providerKeyVariables", () => {
  it("lists each provider's apiKeyEnv", () => {
    const config = configSchema.parse({
      providers: { anthropic: {}, gateway: { baseUrl: "http://127.0.0.1:9", apiKeyEnv: "GATEWAY_TOKEN" } },
    });
    expect(providerKeyVariables(config)).toEqual(["GATEWAY_TOKEN"]);
    expect(providerKeyVariables(undefined)).toEqual([]);
  });
});

describe("buildChildEnvironment", () => {
  const base = {
    PATH: "/bin",
    ANTHROPIC_API_KEY: KEY,
    X_API_KEY: "x",
    GATEWAY_TOKEN: "g",
    UWF_HOME: "/h",
    GONE: undefined,
  };

  it("leaves out keys and removed names and adds the rest on top", () => {
    expect(
      buildChildEnvironment({ base, keyVariables: ["GATEWAY_TOKEN"], remove: ["UWF_HOME"], add: { UWF_ROLE: "r" } }),
    ).toEqual({ PATH: "/bin", UWF_ROLE: "r" });
  });

  it("lets through the keys the agent passes, and what it sets itself", () => {
    expect(buildChildEnvironment({ base, passEnv: ["X_API_KEY"], add: { ANTHROPIC_API_KEY: "set-by-spec" } })).toEqual({
      PATH: "/bin",
      X_API_KEY: "x",
      GATEWAY_TOKEN: "g",
      UWF_HOME: "/h",
      ANTHROPIC_API_KEY: "set-by-spec",
    });
  });
});

describe("command and shell agents", () => {
  let temp: { path: string; remove: () => void };
  const saved = { ...process.env };
  beforeEach(() => {
    temp = makeTempDirectory();
    process.env.ANTHROPIC_API_KEY = KEY;
    process.env.GATEWAY_TOKEN = "gateway-test-not-a-key";
  });
  afterEach(() => {
    temp.remove();
    for (const name of ["ANTHROPIC_API_KEY", "GATEWAY_TOKEN"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const config = configSchema.parse({ providers: { gateway: { apiKeyEnv: "GATEWAY_TOKEN" } } });
  const launch = async (spec: AgentSpec) => {
    const result = await launchAgent({
      spec,
      alias: "test",
      config,
      prompt: "the prompt",
      cwd: temp.path,
      env: { thread: "T", role: "r", step: 1, home: temp.path },
      timeoutMs: 10_000,
    });
    expect(result.error).toBeNull();
    return result.reply;
  };

  it("get no provider keys unless their spec passes them", async () => {
    const listNames = "env | cut -d= -f1 | sort";
    const commandReply = await launch({ command: "sh", args: ["-c", listNames] });
    expect(commandReply).not.toContain("ANTHROPIC_API_KEY");
    expect(commandReply).not.toContain("GATEWAY_TOKEN");
    expect(commandReply).toContain("UWF_HOME");
    const shellReply = await launch({ builtin: "shell", run: listNames });
    expect(shellReply).not.toContain("ANTHROPIC_API_KEY");
    expect(shellReply).not.toContain("GATEWAY_TOKEN");

    const passed = await launch({ command: "sh", args: ["-c", listNames], passEnv: ["GATEWAY_TOKEN"] });
    expect(passed).toContain("GATEWAY_TOKEN");
    expect(passed).not.toContain("ANTHROPIC_API_KEY");
    expect(await launch({ builtin: "shell", run: listNames, passEnv: ["ANTHROPIC_API_KEY"] })).toContain(
      "ANTHROPIC_API_KEY",
    );
  });
});
