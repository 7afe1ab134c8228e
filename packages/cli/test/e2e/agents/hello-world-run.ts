import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type StepResult, stepResultSchema, transcriptNodeSchema } from "@uwf/protocol";
import { getNode, runOfStep } from "../../helpers/cas-nodes.ts";
import type { TempHome, UwfRun } from "../../helpers/temp-home.ts";

/**
 * The two-role run both built-in model agents' end-to-end tests (anthropic, openai) script against their
 * fake API: the writer writes hello.txt and runs a command, the reviewer asks for "hello world", the writer
 * edits the file in its continued conversation, the reviewer approves. Each test turns the turns into its
 * API's replies; the checks of what uwf made of them are the same for both.
 */

/** A model's turn, in tokens: what the API reports it read and wrote. */
export interface TurnUsage {
  input: number;
  output: number;
}

export type HelloWorldTurn =
  | { text: string; usage: TurnUsage }
  | { tools: Array<{ name: string; input: Record<string, unknown> }>; usage: TurnUsage };

/** 8,000 input and 230 output tokens in all; the writer's first step 2,200 and 150. */
export const HELLO_WORLD_TURNS: readonly HelloWorldTurn[] = [
  // Step 1, writer: writes a file and runs a command, then answers.
  {
    tools: [
      { name: "write_file", input: { path: "hello.txt", content: "hello\n" } },
      { name: "run_command", input: { command: "wc -l < hello.txt > lines.txt" } },
    ],
    usage: { input: 1_000, output: 100 },
  },
  { text: "---\nsummary: wrote hello.txt\n---\n\nI wrote the file.", usage: { input: 1_200, output: 50 } },
  // Step 2, reviewer: asks for a change.
  { text: "---\n$status: rejected\ncomments: say hello world\n---\n", usage: { input: 800, output: 20 } },
  // Step 3, writer again: edits the file in its continued conversation.
  {
    tools: [{ name: "edit_file", input: { path: "hello.txt", old_text: "hello", new_text: "hello world" } }],
    usage: { input: 2_000, output: 30 },
  },
  { text: "---\nsummary: now says hello world\n---\n", usage: { input: 2_100, output: 20 } },
  // Step 4, reviewer: approves.
  { text: "---\n$status: approved\ncomments: good\n---\n", usage: { input: 900, output: 10 } },
];

/** `uwf run --json` of the hello-world turns ended cleanly with the four steps' outputs and the file edited. */
export function expectHelloWorldRun(temp: TempHome, run: UwfRun): StepResult {
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  const result = stepResultSchema.parse(run.json());
  expect(result.status).toBe("ended");
  expect(result.steps.map((step) => [step.role, step.output])).toEqual([
    ["writer", { summary: "wrote hello.txt" }],
    ["reviewer", { $status: "rejected", comments: "say hello world" }],
    ["writer", { summary: "now says hello world" }],
    ["reviewer", { $status: "approved", comments: "good" }],
  ]);
  expect(readFileSync(join(temp.work, "hello.txt"), "utf8")).toBe("hello world\n");
  expect(readFileSync(join(temp.work, "lines.txt"), "utf8").trim()).toBe("1");
  return result;
}

/**
 * What uwf recorded of the hello-world run: `show --json` sums its turns' tokens for the thread, at
 * `costUsd`; the store keeps the writer's first run with its transcript (the tool calls, their results,
 * usage per turn), and its second run with the prompt it was really sent: the steps since its last visit.
 */
export async function expectHelloWorldRecords(temp: TempHome, result: StepResult, costUsd: number): Promise<void> {
  expect((await temp.showThread(result.thread)).usage).toEqual({
    inputTokens: 8_000,
    outputTokens: 230,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd,
  });
  const firstRun = await runOfStep(temp, result.steps[0]?.address ?? "");
  expect(firstRun.usage?.inputTokens).toBe(2_200);
  const transcript = transcriptNodeSchema.parse(await getNode(temp, firstRun.transcript ?? ""));
  expect(transcript.messages).toHaveLength(4);
  expect(JSON.stringify(transcript.messages[2])).toContain('"type":"tool_result"');
  expect(transcript.messages[1]).toMatchObject({
    role: "assistant",
    usage: { inputTokens: 1_000, outputTokens: 100 },
  });
  const continuedRun = await runOfStep(temp, result.steps[2]?.address ?? "");
  const sentPrompt = (await getNode(temp, continuedRun.prompt)) as { text: string };
  expect(sentPrompt.text).toContain("This conversation holds the thread up to there");
  expect(continuedRun.attempts[0]?.request).toBe(continuedRun.prompt);
}
