import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { configValueResultSchema } from "@uwf/protocol";
import { useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

const configText = () => readFileSync(join(temp.home, "config.yaml"), "utf8");

describe("uwf config set", () => {
  it("refuses an agent alias the config does not define, listing the known ones, and writes nothing", async () => {
    temp.writeConfig("agents:\n  claude: { preset: claude-code }\n  fast: { builtin: anthropic }\n");
    const refused = await temp.uwf(["config", "set", "defaultAgent", "nope"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toStartWith(
      'uwf: config set defaultAgent: defaultAgent: unknown agent "nope"; known: claude, fast (or scripted:FILE)',
    );
    expect(configText()).not.toContain("defaultAgent");

    const override = await temp.uwf(["config", "set", "agentOverrides.review.writer", "nope", "--json"]);
    expect(override.exitCode).toBe(2);
    expect(JSON.parse(override.stderr)).toMatchObject({ error: { code: "usage" } });

    expect((await temp.uwf(["config", "set", "defaultAgent", "fast"])).exitCode).toBe(0);
    expect((await temp.uwf(["config", "set", "defaultAgent", "scripted:flow.scenario.yaml"])).exitCode).toBe(0);
  });

  it("refuses an unknown model or provider, and accepts a model alias, a known model id or a provider defined", async () => {
    const model = await temp.uwf(["config", "set", "defaultModel", "gpt-nope"]);
    expect(model.exitCode).toBe(2);
    expect(model.stderr).toContain('unknown model "gpt-nope"; known: ');
    expect(model.stderr).toContain("claude-sonnet-4-5");
    expect((await temp.uwf(["config", "set", "defaultModel", "claude-sonnet-4-5"])).exitCode).toBe(0);

    const provider = await temp.uwf(["config", "set", "models.cheap", "{ provider: gateway, model: some-model }"]);
    expect(provider.exitCode).toBe(2);
    expect(provider.stderr).toContain('models.cheap.provider: unknown provider "gateway"; known: anthropic');
    const gateway = await temp.uwf(["config", "set", "providers.gateway", "{ baseUrl: http://127.0.0.1:9 }"]);
    expect(gateway.exitCode).toBe(0);
    expect(
      (await temp.uwf(["config", "set", "models.cheap", "{ provider: gateway, model: some-model }"])).exitCode,
    ).toBe(0);
    expect((await temp.uwf(["config", "set", "defaultModel", "cheap"])).exitCode).toBe(0);
    expect((await temp.uwf(["config", "set", "agents.fast", "{ builtin: anthropic, model: nope }"])).exitCode).toBe(2);
  });

  it("leaves a problem the file already had to the edit that made it", async () => {
    temp.writeConfig("defaultAgent: gone\n");
    expect((await temp.uwf(["config", "set", "timeout", "60"])).exitCode).toBe(0);
    expect(configText()).toBe("defaultAgent: gone\ntimeout: 60\n");
  });
});

describe("uwf config unset", () => {
  it("removes a key so its default applies again, and prints the value now in effect", async () => {
    temp.writeConfig("retries: 5\ndefaultModel: claude-haiku-4-5\n");
    const retries = await temp.uwf(["config", "unset", "retries", "--json"]);
    expect(retries.exitCode).toBe(0);
    expect(configValueResultSchema.parse(retries.json())).toEqual({ key: "retries", value: 2 });
    const model = await temp.uwf(["config", "unset", "defaultModel"]);
    expect(model).toMatchObject({ exitCode: 0, stdout: "defaultModel unset\n" });
    expect(configText()).not.toMatch(/retries|defaultModel/);
    expect((await temp.uwf(["config", "get", "defaultModel"])).exitCode).toBe(1);
  });

  it("fails for a key the file does not set, and refuses to remove an agent another setting names", async () => {
    const missing = await temp.uwf(["config", "unset", "defaultAgnet"]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("defaultAgnet is not set in");

    temp.writeConfig("agents:\n  claude: { preset: claude-code }\ndefaultAgent: claude\n");
    const named = await temp.uwf(["config", "unset", "agents.claude"]);
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toContain('defaultAgent: unknown agent "claude"');
    expect(configText()).toContain("claude: { preset: claude-code }");
  });
});
