import { describe, expect, it } from "bun:test";
import { COMMAND_TABLE } from "../command-table.ts";
import { type CommandEntry, isCommandGroup } from "../table/define-command.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";
import { MCP_TOOLS } from "./mcp-tools.ts";

function tool(name: string): McpToolSpec {
  const found = MCP_TOOLS.find((spec) => spec.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

function commandEntry(path: readonly string[]): CommandEntry | undefined {
  const [name, ...rest] = path;
  const entry = COMMAND_TABLE.find((candidate) => candidate.name === name);
  if (entry === undefined || rest.length === 0)
    return entry !== undefined && !isCommandGroup(entry) ? entry : undefined;
  return isCommandGroup(entry) ? entry.commands.find((command) => command.name === rest[0]) : undefined;
}

describe("MCP_TOOLS", () => {
  it("runs a command of the command table, and gives each an option the command has", () => {
    for (const spec of MCP_TOOLS) {
      const entry = commandEntry(spec.command);
      expect({ tool: spec.name, found: entry !== undefined }).toEqual({ tool: spec.name, found: true });
      const keys = new Set([
        ...(entry?.options ?? []).map((option) => option.key),
        ...(entry?.arguments ?? []).map((argument) => argument.key),
      ]);
      // Every field but the ones the tool turns into another option names one of the command's own.
      const renamed = new Set(["inputs", "inputsFile", "outputText", "thread", "yaml"]);
      const unknown = Object.keys(spec.input).filter((field) => !keys.has(field) && !renamed.has(field));
      expect({ tool: spec.name, unknown }).toEqual({ tool: spec.name, unknown: [] });
    }
  });

  it("turns start inputs given as an object into --input pairs, each value as JSON (which YAML reads)", () => {
    expect(
      tool("start").toOptions({
        workflow: "w",
        prompt: "p",
        inputs: { pr: 42, title: "yes", tags: ["a"] },
        inputsFile: "i.yaml",
      }),
    ).toEqual({ workflow: "w", prompt: "p", input: ["pr=42", 'title="yes"', 'tags=["a"]'], inputs: "i.yaml" });
  });

  it("steps one thread, and hands a typed answer to resume as JSON text", () => {
    expect(tool("step").toOptions({ thread: "01J9", steps: 2 })).toEqual({ threads: ["01J9"], steps: 2 });
    expect(tool("resume").toOptions({ thread: "01J9", answer: { approved: true } })).toEqual({
      thread: "01J9",
      answer: '{"approved":true}',
    });
    expect(tool("read").toOptions({ thread: "01J9" })).toEqual({ thread: "01J9", pager: false });
  });

  it("makes step_batch a batch even for one thread, and hands YAML text to eval and workflow_validate as text", () => {
    expect(tool("step_batch").toOptions({ threads: ["01J9"] })).toEqual({ threads: ["01J9"], parallel: 1 });
    expect(tool("step_batch").toOptions({ threads: ["01J9", "01JA"], parallel: 2, all: true })).toEqual({
      threads: ["01J9", "01JA"],
      parallel: 2,
      all: true,
    });
    expect(tool("follow").toOptions({ thread: "01J9" })).toEqual({ thread: "01J9", follow: true });
    expect(tool("workflow_validate").toOptions({ yaml: "name: x" })).toEqual({
      file: "workflow.yaml",
      source: "name: x",
    });
    expect(tool("eval").toOptions({ suite: "name: s", minPassRate: 0.8 })).toEqual({
      suiteText: "name: s",
      threads: undefined,
      minPassRate: 0.8,
    });
    // What --read-only offers: every tool that only reads.
    expect(MCP_TOOLS.filter((spec) => spec.readOnly).map((spec) => spec.name)).toEqual([
      "show",
      "log",
      "read",
      "list",
      "diff",
      "follow",
      "tree",
      "compare",
      "eval_show",
      "eval_list",
      "workflow_list",
      "workflow_validate",
    ]);
  });

  it("refuses - wherever the command line would read stdin, which is the MCP channel", () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ["start", { workflow: "w", prompt: "-" }],
      ["run", { workflow: "w", promptFile: "-" }],
      ["start", { workflow: "w", inputsFile: "-" }],
      ["step", { thread: "-" }],
      ["resume", { thread: "T", answer: "-" }],
      ["fork", { reference: "T", output: "-" }],
      ["step_batch", { threads: ["T", "-"] }],
      ["follow", { thread: "-" }],
      ["eval", { threads: ["-"] }],
    ];
    for (const [name, input] of cases) {
      expect(() => tool(name).toOptions(input)).toThrow(/stdin/);
    }
  });
});
