import { describe, expect, it } from "bun:test";
import { configSchema } from "@uwf/protocol";
import { findConfigReferenceProblems } from "./find-config-reference-problems.ts";

const keys = (config: unknown) => findConfigReferenceProblems(configSchema.parse(config)).map((problem) => problem.key);

describe("findConfigReferenceProblems", () => {
  it("finds nothing in a config whose names all resolve", () => {
    const config = {
      agents: { fast: { builtin: "anthropic", model: "cheap" }, claude: { preset: "claude-code", model: "opus" } },
      defaultAgent: "fast",
      agentOverrides: { review: { writer: "claude", reviewer: "scripted:review.scenario.yaml" } },
      providers: { gateway: { apiKeyEnv: "GATEWAY_KEY" } },
      models: { cheap: { provider: "gateway", model: "any-id" }, direct: { provider: "anthropic", model: "x" } },
      defaultModel: "claude-sonnet-4-5-20250929",
      extractionModel: "direct",
    };
    expect(keys(config)).toEqual([]);
  });

  it("names each setting that names an unknown agent, model or provider, with the known ones", () => {
    const config = {
      agents: { fast: { builtin: "anthropic", model: "nope" } },
      defaultAgent: "gone",
      agentOverrides: { review: { writer: "scripted:" } },
      models: { cheap: { provider: "gateway", model: "any-id" } },
      defaultModel: "gpt-x",
    };
    expect(keys(config)).toEqual([
      "defaultAgent",
      "agentOverrides.review.writer",
      "defaultModel",
      "agents.fast.model",
      "models.cheap.provider",
    ]);
    const [agent] = findConfigReferenceProblems(configSchema.parse(config));
    expect(agent?.message).toStartWith('unknown agent "gone"; known: fast (or scripted:FILE)');
  });
});
