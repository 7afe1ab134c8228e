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

  it(`names MCP tools whose SERVER__TOOL name no API accepts, and malformed \${NAME} references`, () => {
    const config = {
      agents: {
        fine: {
          builtin: "anthropic",
          mcpServers: {
            fs: { command: "mcp-fs", args: ["."], env: { TOKEN: `\${FS_TOKEN}` }, allow: ["read_file"] },
            web: { url: "https://example.test/mcp", headers: { Authorization: `Bearer \${WEB_TOKEN}` } },
          },
        },
        broken: {
          builtin: "anthropic",
          mcpServers: {
            fs: { command: "mcp-fs", deny: ["has space", "x".repeat(61)], env: { TOKEN: `\${FS TOKEN}` } },
            web: { url: "https://example.test/mcp", headers: { Authorization: "Bearer ${WEB_TOKEN" } },
            ["s".repeat(62)]: { command: "mcp-long" },
          },
        },
      },
    };
    const problems = findConfigReferenceProblems(configSchema.parse(config));
    expect(problems.map((problem) => problem.key)).toEqual([
      "agents.broken.mcpServers.fs.deny",
      "agents.broken.mcpServers.fs.deny",
      "agents.broken.mcpServers.fs.env.TOKEN",
      "agents.broken.mcpServers.web.headers.Authorization",
      `agents.broken.mcpServers.${"s".repeat(62)}`,
    ]);
    expect(problems[0]?.message).toBe(
      'the tool "fs__has space" has characters a tool name may not have (letters, digits, _ and - only)',
    );
    expect(problems[1]?.message).toStartWith('the tool "fs__xxx');
    expect(problems[1]?.message).toEndWith("is longer than the 64 characters a tool name may have");
    expect(problems[3]?.message).toBe(
      `"Bearer \${WEB_TOKEN" has a \${ that does not name a variable; write \${NAME} (letters, digits and _)`,
    );
  });
});
