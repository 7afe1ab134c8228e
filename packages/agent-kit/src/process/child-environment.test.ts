import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { type AgentSpec, configSchema } from "@uwf/protocol";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { launchAgent } from "../launch/launch-agent.ts";
import {
  buildChildEnvironment,
  isProviderKeyVariable,
  isStoreVariable,
  providerKeyVariables,
  storeSecretValues,
} from "./child-environment.ts";

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

describe("isStoreVariable", () => {
  it("matches UWF_STORE and every PG* variable", () => {
    for (const name of ["UWF_STORE", "PGPASSWORD", "PGHOST", "PGPASSFILE", "PGSERVICE"]) {
      expect(isStoreVariable(name)).toBe(true);
    }
    for (const name of ["UWF_HOME", "PATH", "STORE", "MY_PGPASSWORD"]) expect(isStoreVariable(name)).toBe(false);
  });
});

describe("storeSecretValues", () => {
  it("is the password of the store in config and of UWF_STORE, as written and decoded", () => {
    expect(storeSecretValues({ store: "postgres://u:S3cr3t@db:5432/uwf" }, {})).toEqual(["S3cr3t"]);
    expect(storeSecretValues({ store: "file" }, { UWF_STORE: "postgres://u:p%40ss%2Fword@db/uwf" })).toEqual([
      "p%40ss%2Fword",
      "p@ss/word",
    ]);
    expect(storeSecretValues({ store: "postgres://u@db/uwf" }, {})).toEqual([]);
    expect(storeSecretValues(undefined, {})).toEqual([]);
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

  it("leaves out the store's variables and any variable holding one of the secret values, unless passed", () => {
    const withStore = {
      PATH: "/bin",
      UWF_STORE: "postgres://u:S3cr3t@db/uwf",
      PGPASSWORD: "S3cr3t",
      PGHOST: "db",
      DATABASE_URL: "postgres://u:S3cr3t@db/uwf",
      OTHER: "harmless",
    };
    expect(buildChildEnvironment({ base: withStore, secretValues: ["S3cr3t"] })).toEqual({
      PATH: "/bin",
      OTHER: "harmless",
    });
    expect(
      buildChildEnvironment({ base: withStore, secretValues: ["S3cr3t"], passEnv: ["PGHOST", "DATABASE_URL"] }),
    ).toEqual({ PATH: "/bin", PGHOST: "db", DATABASE_URL: "postgres://u:S3cr3t@db/uwf", OTHER: "harmless" });
  });

  it("keeps the provider keys when asked (Claude Code), never the store's variables", () => {
    expect(buildChildEnvironment({ base: { ...base, PGPASSWORD: "x" }, keepProviderKeys: true })).toEqual({
      PATH: "/bin",
      ANTHROPIC_API_KEY: KEY,
      X_API_KEY: "x",
      GATEWAY_TOKEN: "g",
      UWF_HOME: "/h",
    });
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
  const storeNames = ["UWF_STORE", "PGPASSWORD", "DATABASE_URL"];
  afterEach(() => {
    temp.remove();
    for (const name of ["ANTHROPIC_API_KEY", "GATEWAY_TOKEN", ...storeNames]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const config = configSchema.parse({ providers: { gateway: { apiKeyEnv: "GATEWAY_TOKEN" } } });
  const launch = async (spec: AgentSpec, launchConfig = config) => {
    const result = await launchAgent({
      spec,
      alias: "test",
      config: launchConfig,
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

  it("get neither the store's variables nor any variable holding its password, unless their spec passes them", async () => {
    const url = "postgres://uwf:store-test-password@127.0.0.1:9/uwf";
    process.env.UWF_STORE = url;
    process.env.PGPASSWORD = "pg-test-password";
    process.env.DATABASE_URL = url;
    // The CLI sets `store` to the store in use (`--store`), which no variable need name.
    const withStore = configSchema.parse({ store: url.replace("store-test-password", "flag-test-password") });
    process.env.DATABASE_URL = withStore.store;
    const listValues = "env | sort";
    for (const spec of [
      { command: "sh", args: ["-c", listValues] },
      { builtin: "shell" as const, run: listValues },
    ]) {
      const reply = await launch(spec, withStore);
      for (const name of storeNames) expect(reply).not.toContain(`${name}=`);
      // The store's passwords, by any variable (the runner's own, such as UWF_TEST_POSTGRES_URL, may hold others).
      for (const password of ["store-test-password", "flag-test-password", "pg-test-password"]) {
        expect(reply).not.toContain(password);
      }
      expect(reply).toContain("UWF_HOME=");
    }
    const passed = await launch({ command: "sh", args: ["-c", listValues], passEnv: ["PGPASSWORD"] }, withStore);
    expect(passed).toContain("PGPASSWORD=pg-test-password");
    expect(passed).not.toContain("DATABASE_URL=");
  });
});
