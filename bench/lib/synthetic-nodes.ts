import { scriptedAgentRun } from "../../packages/cas/src/testing/index.ts";
import type {
  Address,
  AgentRunNode,
  OutputNode,
  TextNode,
  ThreadStartNode,
  ThreadStepNode,
} from "../../packages/protocol/src/index.ts";

/** The one role of bench/fixtures/loop.yaml, which every synthetic step plays. */
export const SYNTHETIC_ROLE = "worker";

/** The agent name recorded in generated runs, as `--agent scripted:FILE` would record it. */
export const SYNTHETIC_AGENT = "scripted:bench";

const WORDS = [
  "parse",
  "config",
  "thread",
  "step",
  "review",
  "change",
  "test",
  "module",
  "error",
  "handler",
  "store",
  "node",
  "cache",
  "index",
  "update",
  "schema",
  "field",
  "commit",
  "branch",
  "result",
  "the",
  "a",
  "of",
  "to",
  "and",
  "in",
  "with",
  "for",
  "then",
  "so",
] as const;

/** Deterministic filler prose of about `length` characters, different for every seed. */
export function fillerText(seed: number, length: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const word = WORDS[state % WORDS.length] as string;
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ");
}

export interface SyntheticStepInput {
  /** Distinguishes threads, so no two threads share a node by accident. */
  tag: string;
  /** The real step number (1 for the first step). */
  number: number;
  start: Address;
  prev: Address | null;
  /** When the step started; it completes 20 s later. */
  startedAt: Date;
  cwd: string;
  done?: boolean;
}

/** The children a real step writes besides the step node itself, in the order the engine adds them. */
export interface SyntheticStepChildren {
  prompt: TextNode;
  reply: TextNode;
  body: TextNode;
  output: OutputNode;
  run: (addresses: { prompt: Address; reply: Address }) => AgentRunNode;
  step: (addresses: { output: Address; body: Address; run: Address }) => ThreadStepNode;
}

/**
 * The nodes one `uwf step` writes, with realistic sizes: the prompt (about 2.5 KB), the raw
 * reply, the body (about 600 characters), the output fields, the agent run and the step node.
 */
export function syntheticStep(input: SyntheticStepInput): SyntheticStepChildren {
  const seed = hashSeed(`${input.tag}/${input.number}`);
  const summary = `${input.tag} step ${input.number}: ${fillerText(seed, 60)}`;
  const fields = { n: input.number, done: input.done === true, summary };
  const body = `## Step ${input.number}\n\n${fillerText(seed + 1, 600)}\n`;
  const replyText = `---\nn: ${input.number}\ndone: ${fields.done}\nsummary: ${JSON.stringify(summary)}\n---\n\n${body}`;
  const promptText = [
    "# Output format\n\nStart your reply with YAML frontmatter, the fields below, then markdown.",
    "- `n` (integer, **required**)\n- `done` (boolean, **required**)\n- `summary` (string, optional)",
    `# Your role: worker\n\nYou play the role "worker" at step ${input.number} of a thread of the workflow "loop".`,
    `# Task\n\n${input.tag}: ${fillerText(seed + 2, 300)}`,
    `# History\n\n${fillerText(seed + 3, 1700)}`,
    `# Your next step\n\nContinue after step ${input.number - 1}.`,
  ].join("\n\n");
  const startedAt = input.startedAt.toISOString();
  const completedAt = new Date(input.startedAt.getTime() + 20_000).toISOString();
  const edgePrompt = input.number === 1 ? "Start the task." : `Continue after step ${input.number - 1}.`;
  return {
    prompt: { type: "text/1", text: promptText },
    reply: { type: "text/1", text: replyText },
    body: { type: "text/1", text: body },
    output: { type: "output/1", fields },
    run: ({ prompt, reply }) =>
      scriptedAgentRun({ agent: SYNTHETIC_AGENT, cwd: input.cwd, prompt, reply, startedAt, completedAt }),
    step: ({ output, body: bodyAddress, run }) => ({
      type: "thread-step/1",
      start: input.start,
      prev: input.prev,
      role: SYNTHETIC_ROLE,
      edgePrompt,
      output,
      body: bodyAddress,
      run,
      startedAt,
      completedAt,
    }),
  };
}

export function syntheticStart(workflow: Address, tag: string, cwd: string): ThreadStartNode {
  return { type: "thread-start/1", workflow, prompt: `${tag}: ${fillerText(hashSeed(tag), 200)}`, cwd };
}

function hashSeed(text: string): number {
  return Bun.hash.crc32(text);
}
