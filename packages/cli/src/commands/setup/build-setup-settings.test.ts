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
  it("returns every setting for one write: provider, model alias, default model, agent, default agent", () => {
    const { settings, modelAlias } = buildBuiltinSettings(answers, configSchema.parse({}));
    expect(modelAlias).toBe("claude-haiku-4-5");
    expect(settings).toEqual([
      {
        key: "providers.gateway",
        valueText: JSON.stringify({
          type: "anthropic",
          apiKeyEnv: "GATEWAY_API_KEY",
          baseUrl: "https://gateway.example",
        }),
      },
      { key: "models.claude-haiku-4-5", valueText: JSON.stringify({ provider: "gateway", model: "claude-haiku-4.5" }) },
      { key: "defaultModel", valueText: '"claude-haiku-4-5"' },
      { key: "agents.anthropic", valueText: '{"builtin":"anthropic"}' },
      { key: "defaultAgent", valueText: "anthropic" },
    ]);
  });

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

describe("buildBuiltinSettings for the openai agent", () => {
  it("writes a provider of type openai and makes the openai agent the default", () => {
    const { settings, modelAlias } = buildBuiltinSettings(
      { ...answers, type: "openai", provider: "local", baseUrl: "http://localhost:11434/v1", model: "qwen3:8b" },
      configSchema.parse({}),
    );
    expect(modelAlias).toBe("qwen3-8b");
    expect(settings).toEqual([
      {
        key: "providers.local",
        valueText: JSON.stringify({
          type: "openai",
          apiKeyEnv: "GATEWAY_API_KEY",
          baseUrl: "http://localhost:11434/v1",
        }),
      },
      { key: "models.qwen3-8b", valueText: JSON.stringify({ provider: "local", model: "qwen3:8b" }) },
      { key: "defaultModel", valueText: '"qwen3-8b"' },
      { key: "agents.openai", valueText: '{"builtin":"openai"}' },
      { key: "defaultAgent", valueText: "openai" },
    ]);
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
