import { describe, expect, it } from "bun:test";
import { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "@uwf/workflow";
import { InvalidConfigError } from "../errors/invalid-config-error.ts";
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

  it("reads the default budget and the budgets of workflows", () => {
    const config = parseConfig(
      "budget: { max_cost_usd: 5 }\nworkflowBudgets:\n  review: { max_steps: 20, max_tokens: 100000 }\n",
      file,
    );
    expect(config.budget).toEqual({ max_cost_usd: 5 });
    expect(config.workflowBudgets).toEqual({ review: { max_steps: 20, max_tokens: 100_000 } });
    expect(problems("budget:\n  max_steps: 2.5\n")).toEqual([`${file}:2:3: budget.max_steps: expected a whole number`]);
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

  it("refuses an alias bomb as a problem, not a thrown error", () => {
    const lines = ['x-a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (const [index, name] of ["b", "c", "d", "e", "f"].entries()) {
      lines.push(`x-${name}: &${name} [${Array(10).fill(`*${"abcdef"[index]}`).join(", ")}]`);
    }
    expect(problems(`${lines.join("\n")}\n`)).toEqual([
      `${file}: aliases expand too much (more than ${MAX_YAML_ALIASES} alias expansions)`,
    ]);
  });

  it(`refuses nesting deeper than ${MAX_YAML_NESTING} levels with a short problem`, () => {
    expect(problems(`agents: ${"[".repeat(MAX_YAML_NESTING)}${"]".repeat(MAX_YAML_NESTING)}\n`)).toEqual([
      `${file}:1:${8 + MAX_YAML_NESTING}: mappings and lists nest deeper than ${MAX_YAML_NESTING} levels`,
    ]);
    const [deep] = problems(`agents: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
    expect(deep).toMatch(
      new RegExp(`^${file}:1:\\d+: invalid YAML: mappings and lists nest deeper than ${MAX_YAML_NESTING} levels$`),
    );
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
