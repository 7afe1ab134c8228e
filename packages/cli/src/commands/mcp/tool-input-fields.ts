import { z } from "zod";
import { UsageError } from "../../errors/usage-error.ts";

/**
 * stdin is the MCP channel: a field the CLI lets read stdin (`-`) is refused, or the command would
 * read the client's messages as its input.
 */
export function notStdin(value: unknown, field: string): void {
  if (value === "-") {
    throw new UsageError(`${field}: "-" reads stdin on the command line, but uwf mcp's stdin is the MCP channel`, {
      field,
    });
  }
}

export const threadId = z.string().min(1).describe("a thread id or a unique prefix of one");
export const agent = z.string().optional().describe("agent for roles that name none (an alias, or scripted:FILE)");
export const timeout = z.number().positive().optional().describe("agent timeout in seconds");
export const budget = {
  maxSteps: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("budget: the thread suspends before a step past its N-th (0: no limit)"),
  maxTokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("budget: no step starts once the thread's agents used N tokens"),
  maxCost: z
    .number()
    .positive()
    .optional()
    .describe("budget: no step starts once the thread's agents cost this many US dollars"),
};
export const startInput = {
  workflow: z
    .string()
    .min(1)
    .describe(
      "a registered workflow's name, a workflow hash, a thread id, or a file of the home's workflows/ (never a path)",
    ),
  prompt: z.string().optional().describe("the task"),
  promptFile: z.string().optional().describe("the task from a file (relative to the server's working directory)"),
  cwd: z.string().optional().describe("where the thread's agents run (default: the server's working directory)"),
  inputs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("start inputs by name, checked against the workflow's inputs: schema (each as --input KEY=VALUE)"),
  inputsFile: z.string().optional().describe("start inputs from a YAML or JSON map file (--inputs FILE)"),
  ...budget,
};

/** `start`'s and `run`'s fields as the start command's options. */
export function startOptions(input: Record<string, unknown>): Record<string, unknown> {
  const { inputs, inputsFile, ...rest } = input;
  notStdin(rest.prompt, "prompt");
  notStdin(rest.promptFile, "promptFile");
  notStdin(inputsFile, "inputsFile");
  const pairs =
    inputs === undefined
      ? undefined
      : Object.entries(inputs as Record<string, unknown>).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  // A JSON value is YAML too, and the CLI reads each --input value as YAML.
  return { ...rest, input: pairs, inputs: inputsFile };
}
