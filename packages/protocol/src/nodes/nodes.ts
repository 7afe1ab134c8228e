import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { THREAD_ID_PATTERN } from "../ids/thread-id-pattern.ts";
import { nodeSchema } from "../json/node-schema.ts";

const timestamp = z.iso.datetime();

/** The first node of a thread: which workflow, what task, where agents run. */
export const threadStartNodeSchema = nodeSchema("thread-start/1", {
  workflow: addressSchema,
  prompt: z.string(),
  cwd: z.string(),
  /** The values the thread was started with (`--input`, `--inputs`); absent when none, so such start nodes keep their address. */
  inputs: z.record(z.string(), z.unknown()).optional(),
});
export type ThreadStartNode = z.infer<typeof threadStartNodeSchema>;

/** One moderator → agent → extract cycle. `prev` null means the step follows the start node. */
export const threadStepNodeSchema = nodeSchema("thread-step/1", {
  start: addressSchema,
  prev: addressSchema.nullable(),
  role: z.string(),
  edgePrompt: z.string(),
  output: addressSchema,
  body: addressSchema,
  run: addressSchema,
  startedAt: timestamp,
  completedAt: timestamp,
  /** Set on a step whose reply routed to a fan-out: its `fan-out/1` node, the branches planned. Absent otherwise, so other steps keep their address. */
  fanOut: addressSchema.optional(),
  /** Set on a join step: its `branches/1` node, the branches it joined. Absent otherwise. */
  joined: addressSchema.optional(),
  /** Set on the step that answers a typed suspension (`resume --answer`): its `answer/1` node. Absent otherwise. */
  answer: addressSchema.optional(),
  /**
   * Set on the step uwf records when a suspension's `suspendTimeout` passed unanswered (no agent ran;
   * its output is `$status: $timeout`, its run an agent-run of kind `timeout`). Absent otherwise.
   */
  timedOut: z
    .object({
      /** When the suspending step completed. */
      suspendedAt: timestamp,
      /** When the wait ran out: `suspendedAt` plus the role's `suspendTimeout`. */
      deadline: timestamp,
      /** The role's `suspendTimeout` as written. */
      after: z.string(),
    })
    .strict()
    .optional(),
});
export type ThreadStepNode = z.infer<typeof threadStepNodeSchema>;

/** The validated frontmatter fields a role reported. */
export const outputNodeSchema = nodeSchema("output/1", {
  fields: z.record(z.string(), z.unknown()),
});
export type OutputNode = z.infer<typeof outputNodeSchema>;

/** A person's answer to a typed suspension, as `uwf resume --answer` gave it and the role's `answer:` schema accepted it. */
export const answerNodeSchema = nodeSchema("answer/1", {
  fields: z.record(z.string(), z.unknown()),
});
export type AnswerNode = z.infer<typeof answerNodeSchema>;

/** Any text worth keeping on its own: a markdown body, a prompt, a raw reply. */
export const textNodeSchema = nodeSchema("text/1", {
  text: z.string(),
});
export type TextNode = z.infer<typeof textNodeSchema>;

/** One part of a stored prompt: text of its own, or the address of a `text/1` or `prompt/1` node it shares. */
export const promptPartSchema = z.union([
  z.object({ text: z.string() }).strict(),
  z.object({ ref: addressSchema }).strict(),
]);
export type PromptPart = z.infer<typeof promptPartSchema>;

/**
 * A prompt stored as its parts (issue 43): its text is the parts' texts in order. The history entries a
 * prompt shares with the prompts before it are `text/1` nodes it refers to, so a thread's prompts store
 * each entry once, not once per prompt; `uwf show --prompt` puts the exact bytes back together.
 */
export const promptNodeSchema = nodeSchema("prompt/1", {
  parts: z.array(promptPartSchema),
  /**
   * For a whole-thread prompt: how it showed the steps, whose entries are its references in order (one
   * per step), so that the role's next prompt takes the entries it shows the same way instead of
   * formatting them again. Bodies are shown newest first: whole from step index `full` on, the one
   * before cut to `cut` characters (null: none cut), the older ones left out. `key` names what else an
   * entry's text depends on (the workflow, the role, the body quota).
   */
  history: z
    .object({
      key: z.string(),
      /**
       * The steps before this index are left out for good (a later prompt of the same key shows more
       * steps, so no fewer bodies fit): their lengths are not kept. Absent: 0.
       */
      from: z.number().int().positive().optional(),
      /** The body length of each step from `from` on, in UTF-16 code units. */
      bodies: z.array(z.number().int().nonnegative()),
      full: z.number().int().nonnegative(),
      cut: z.number().int().positive().nullable(),
    })
    .strict()
    .optional(),
});
export type PromptNode = z.infer<typeof promptNodeSchema>;

/** A tool call the agent's program refused to run for lack of permission (Claude Code's `permission_denials`). */
export const permissionDenialSchema = z
  .object({
    tool: z.string(),
    toolUseId: z.string().nullable(),
    input: z.unknown(),
  })
  .strict();
export type PermissionDenial = z.infer<typeof permissionDenialSchema>;

/** Tokens and cost per model id. */
export const modelUsageSchema = z.record(z.string(), usageSchema);
export type ModelUsage = z.infer<typeof modelUsageSchema>;

/**
 * One launch of the agent program within a run (the first try, then each retry). The optional
 * fields are written only by agents that report them (Claude Code), so older nodes stay valid.
 */
export const agentAttemptSchema = z
  .object({
    /** What was sent: the full prompt on the first attempt, the correction on a retry. */
    request: addressSchema,
    /** The raw reply (stdout), kept even when the attempt failed. */
    reply: addressSchema.nullable(),
    exitCode: z.number().int().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    interrupted: z.boolean(),
    stderrTail: z.string(),
    /** Why the attempt did not count: a launch failure or the validation problem. */
    error: z.string().nullable(),
    startedAt: timestamp,
    completedAt: timestamp,
    /** Model turns the agent took (Claude Code's `num_turns`). */
    turns: z.number().int().nonnegative().optional(),
    /** This launch's own tokens and cost, per model. */
    modelUsage: modelUsageSchema.optional(),
    /**
     * The running totals the agent reported for its session after this launch, as it reported them
     * (Claude Code's `modelUsage`): the next launch that resumes the session counts only what it adds.
     */
    sessionUsage: modelUsageSchema.optional(),
    /** Tool calls refused for lack of permission. */
    permissionDenials: z.array(permissionDenialSchema).optional(),
    /** Why the stored conversation could not be continued, when the launch started a fresh one instead. */
    freshStart: z.string().optional(),
    /** Why the usage a command agent wrote to `UWF_USAGE_FILE` was not counted (a malformed file). */
    usageProblem: z.string().optional(),
  })
  .strict();
export type AgentAttempt = z.infer<typeof agentAttemptSchema>;

export const agentRunOutcomeSchema = z.enum(["ok", "failed", "timeout", "invalid", "interrupted"]);
export type AgentRunOutcome = z.infer<typeof agentRunOutcomeSchema>;

/** Everything about running the agent for one step: enough to read, debug and resume it. */
export const agentRunNodeSchema = nodeSchema("agent-run/1", {
  agent: z.string(),
  kind: z.string(),
  command: z.array(z.string()).nullable(),
  cwd: z.string(),
  prompt: addressSchema,
  attempts: z.array(agentAttemptSchema),
  outcome: agentRunOutcomeSchema,
  error: z.string().nullable(),
  sessionId: z.string().nullable(),
  usage: usageSchema.nullable(),
  /** How the fields were obtained: from the reply's frontmatter, by an extraction model, or given by hand. */
  extraction: z.enum(["frontmatter", "llm", "manual"]).nullable(),
  /** A model transcript (messages and tool calls) for agents that keep one. */
  transcript: addressSchema.nullable(),
  /**
   * The thread that ran it, so that `uwf cas recover` knows which thread made each step (and so where
   * each thread's head was) when the ref store lost its records. Absent on runs written before.
   */
  thread: z.string().regex(THREAD_ID_PATTERN).optional(),
});
export type AgentRunNode = z.infer<typeof agentRunNodeSchema>;

/** A model conversation as a node, so a later visit can continue it from the store alone. */
export const transcriptNodeSchema = nodeSchema("transcript/1", {
  messages: z.array(z.unknown()),
});
export type TranscriptNode = z.infer<typeof transcriptNodeSchema>;
