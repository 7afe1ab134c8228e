import { describe, expect, it } from "bun:test";
import { InvalidConfigError } from "./invalid-config-error.ts";
import { parseConfig, safeParseConfig } from "./parse-config.ts";

const file = "/home/.uwf/config.yaml";

function problems(text: string): string[] {
  const result = safeParseConfig(text, file);
  if (result.success) throw new Error("expected problems");
  return result.error.message
    .split("\n")
    .slice(1)
    .map((line) => line.trim());
}

describe("safeParseConfig", () => {
  it("gives the defaults for an empty file", () => {
    expect(safeParseConfig("", file)).toEqual({
      success: true,
      value: { agents: {}, agentOverrides: {}, providers: {}, models: {}, retries: 2, timeout: 1800 },
    });
  });

  it("reads agents, the default agent and overrides", () => {
    const config = parseConfig(
      "agents:\n  claude: { command: claude, args: [-p] }\n  demo: { builtin: scripted, scenario: demo.yaml }\ndefaultAgent: claude\nagentOverrides:\n  review: { reviewer: demo }\n",
      file,
    );
    expect(config.agents.claude).toEqual({ command: "claude", args: ["-p"] });
    expect(config.defaultAgent).toBe("claude");
    expect(config.agentOverrides).toEqual({ review: { reviewer: "demo" } });
  });

  it("names the file, line and field of a wrong type", () => {
    expect(problems("retries: 2\ntimeout: soon\n")).toEqual([`${file}:2:1: timeout: expected number, received string`]);
  });

  it("explains an agent entry by the kind it names", () => {
    expect(problems("agents:\n  claude:\n    comand: claude\n")).toEqual([
      `${file}:2:3: agents.claude.command: missing (expected string)`,
      `${file}:3:5: agents.claude.comand: unknown key`,
    ]);
    expect(problems("agents:\n  demo:\n    builtin: scripted\n")).toEqual([
      `${file}:2:3: agents.demo.scenario: missing (expected string)`,
    ]);
    expect(problems("agents:\n  demo:\n    builtin: magic\n")).toEqual([
      `${file}:3:5: agents.demo.builtin: unknown built-in agent "magic" (expected scripted, shell or anthropic)`,
    ]);
  });

  it("points at an unknown top-level key", () => {
    expect(problems("retries: 1\nretry: 2\n")).toEqual([`${file}:2:1: retry: unknown key`]);
  });

  it("reports invalid YAML with its line", () => {
    const [problem] = problems("defaultAgent: claude\nagents: [x\n");
    expect(problem).toStartWith(`${file}:3:1: invalid YAML:`);
  });

  it("rejects a file that is not a mapping", () => {
    expect(problems("- a\n")).toEqual([`${file}:1:1: expected a mapping of settings (key: value lines)`]);
  });

  it("throws InvalidConfigError with the problems as data", () => {
    try {
      parseConfig("retries: -1\n", file);
      throw new Error("expected a throw");
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConfigError);
      const invalid = error as InvalidConfigError;
      expect(invalid.code).toBe("invalid-config");
      expect(invalid.toJSON().data).toEqual({
        file,
        problems: [{ line: 1, column: 1, path: "retries", message: expect.stringContaining(">=0") }],
      });
    }
  });
});
