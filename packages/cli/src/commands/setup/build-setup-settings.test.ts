import { describe, expect, it } from "bun:test";
import { configSchema } from "@uwf/protocol";
import { buildBuiltinSettings, buildClaudeCodeSettings } from "./build-setup-settings.ts";

const answers = {
  type: "anthropic" as const,
  provider: "gateway",
  baseUrl: "https://gateway.example",
  apiKeyEnv: "GATEWAY_API_KEY",
  apiKey: undefined,
  model: "claude-haiku-4.5",
  verify: false,
};

describe("buildBuiltinSettings", () => {
  it.each([
    {
      type: "anthropic",
      provider: "gateway",
      baseUrl: "https://gateway.example",
      model: "claude-haiku-4.5",
      alias: "claude-haiku-4-5",
      agent: '{"builtin":"anthropic"}',
    },
    {
      type: "openai",
      provider: "local",
      baseUrl: "http://localhost:11434/v1",
      model: "qwen3:8b",
      alias: "qwen3-8b",
      agent: '{"builtin":"openai"}',
    },
  ] as const)(
    "returns every $type setting for one write: provider of that type, model alias, default model, agent, default agent",
    ({ type, provider, baseUrl, model, alias, agent }) => {
      const { settings, modelAlias } = buildBuiltinSettings(
        { ...answers, type, provider, baseUrl, model },
        configSchema.parse({}),
      );
      expect(modelAlias).toBe(alias);
      expect(settings).toEqual([
        { key: `providers.${provider}`, valueText: JSON.stringify({ type, apiKeyEnv: "GATEWAY_API_KEY", baseUrl }) },
        { key: `models.${alias}`, valueText: JSON.stringify({ provider, model }) },
        { key: "defaultModel", valueText: `"${alias}"` },
        { key: `agents.${type}`, valueText: agent },
        { key: "defaultAgent", valueText: type },
      ]);
    },
  );

  it("keeps a model alias and an anthropic agent that are already there", () => {
    const existing = configSchema.parse({
      providers: { gateway: { type: "anthropic", apiKeyEnv: "GATEWAY_API_KEY" } },
      models: { fast: { provider: "gateway", model: "claude-haiku-4-5" } },
      agents: { anthropic: { builtin: "anthropic", maxTurns: 3 } },
    });
    const { settings, modelAlias } = buildBuiltinSettings({ ...answers, model: "fast" }, existing);
    expect(modelAlias).toBe("fast");
    expect(settings.map((setting) => setting.key)).toEqual(["providers.gateway", "defaultModel", "defaultAgent"]);
  });
});

describe("buildClaudeCodeSettings", () => {
  it("adds the preset, with the model when given, then makes it the default agent", () => {
    expect(buildClaudeCodeSettings("opus", configSchema.parse({}))).toEqual([
      { key: "agents.claude-code", valueText: '{"preset":"claude-code","model":"opus"}' },
      { key: "defaultAgent", valueText: "claude-code" },
    ]);
  });

  it("keeps a preset already there and sets only its model", () => {
    const existing = configSchema.parse({
      agents: { "claude-code": { preset: "claude-code", command: "/opt/claude" } },
    });
    expect(buildClaudeCodeSettings("opus", existing)).toEqual([
      { key: "agents.claude-code.model", valueText: '"opus"' },
      { key: "defaultAgent", valueText: "claude-code" },
    ]);
    expect(buildClaudeCodeSettings(undefined, existing)).toEqual([{ key: "defaultAgent", valueText: "claude-code" }]);
  });
});
