import { describe, expect, it } from "bun:test";
import { type Config, defaultConfig } from "@uwf/protocol";
import { type SuiteVariant, variantConfig } from "../index.ts";

const variant = (overrides: Partial<SuiteVariant>): SuiteVariant => ({
  name: "v",
  agent: null,
  model: null,
  workflow: null,
  config: null,
  ...overrides,
});

const HOME: Config = {
  ...defaultConfig(),
  agents: {
    claude: { preset: "claude-code" },
    api: { builtin: "anthropic", model: "claude-haiku-4-5" },
    local: { builtin: "openai", model: "qwen3-8b" },
    script: { command: "./agent.sh", args: [] },
  },
  defaultAgent: "claude",
  retries: 3,
};

describe("variantConfig", () => {
  it("is the home's config when the variant changes nothing", () => {
    expect(variantConfig(HOME, variant({}))).toBe(HOME);
  });

  it("lays the variant's config over the home's, maps merged key by key", () => {
    const merged = variantConfig(
      HOME,
      variant({ config: { retries: 0, agents: { mine: { command: "echo" } }, budget: { max_steps: 5 } } }),
    );
    expect(merged.retries).toBe(0);
    expect(merged.budget).toEqual({ max_steps: 5 });
    expect(Object.keys(merged.agents).sort()).toEqual(["api", "claude", "local", "mine", "script"]);
    expect(merged.agents.mine).toEqual({ command: "echo", args: [] });
    expect(merged.defaultAgent).toBe("claude");
  });

  it("sets the model as defaultModel and on every anthropic, openai and preset agent, not on command agents", () => {
    const merged = variantConfig(HOME, variant({ model: "claude-sonnet-4-5" }));
    expect(merged.defaultModel).toBe("claude-sonnet-4-5");
    expect(merged.agents).toEqual({
      claude: { preset: "claude-code", model: "claude-sonnet-4-5" },
      api: { builtin: "anthropic", model: "claude-sonnet-4-5" },
      local: { builtin: "openai", model: "claude-sonnet-4-5" },
      script: { command: "./agent.sh", args: [] },
    });
  });

  it("throws when the merged config is not a config", () => {
    expect(() => variantConfig(HOME, variant({ config: { agents: { claude: { preset: "nope" } } } }))).toThrow();
  });
});
