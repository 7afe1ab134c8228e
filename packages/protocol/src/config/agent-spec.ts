import { z } from "zod";
import { mcpServersSchema } from "./mcp-server-spec.ts";

const timeoutSeconds = z.number().positive().describe("seconds before the agent is killed");

/**
 * Key and store variables this agent's programs may have after all: by default every
 * `ANTHROPIC_*` and `*_API_KEY` variable and each provider's `apiKeyEnv` are removed
 * from the environment of command and shell agents and of the built-in agent's `run_command`,
 * and `UWF_STORE`, every `PG*` variable and any variable holding the store's password from
 * every agent's.
 */
const passEnv = z
  .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"))
  .describe("key variables passed to the agent's programs");

/** A program that reads the prompt on stdin and writes its reply on stdout. */
export const commandAgentSpecSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
    passEnv: passEnv.optional(),
    timeout: timeoutSeconds.optional(),
  })
  .strict();

/** Replays a scenario file; for tests, demos and CI. */
export const scriptedAgentSpecSchema = z
  .object({
    builtin: z.literal("scripted"),
    scenario: z.string().min(1),
    timeout: timeoutSeconds.optional(),
  })
  .strict();

/** Runs a command line and reports pass/fail: a deterministic pipeline stage. */
export const shellAgentSpecSchema = z
  .object({
    builtin: z.literal("shell"),
    run: z.string().min(1),
    tail: z.number().int().positive().optional().describe("characters of output kept as the body"),
    passEnv: passEnv.optional(),
    timeout: timeoutSeconds.optional(),
  })
  .strict();

/** What both built-in agent loops (`anthropic`, `openai`) take beside their model. */
const agentLoopFields = {
  maxTurns: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  /** For `run_command`. */
  passEnv: passEnv.optional(),
  timeout: timeoutSeconds.optional(),
  /** MCP servers whose tools the model gets beside the built-in ones. */
  mcpServers: mcpServersSchema.optional(),
};

/** The built-in agent loop on the Anthropic Messages API. */
export const anthropicAgentSpecSchema = z
  .object({
    builtin: z.literal("anthropic"),
    model: z.string().optional(),
    ...agentLoopFields,
  })
  .strict();

/**
 * The built-in agent loop on an OpenAI-compatible Chat Completions API (OpenAI, a gateway, OpenRouter,
 * vLLM, llama.cpp, Ollama...): the same tools and contract as `anthropic`.
 */
export const openaiAgentSpecSchema = z
  .object({
    builtin: z.literal("openai"),
    /** A `models:` alias of config.yaml, or a model name the provider knows. */
    model: z.string().optional(),
    /** The server's base URL (…/v1); beats the model's provider's `baseUrl`. */
    baseUrl: z.string().url().optional(),
    /** The variable holding the key; beats the provider's `apiKeyEnv`. Default `OPENAI_API_KEY`. */
    apiKeyEnv: z.string().optional(),
    ...agentLoopFields,
  })
  .strict();

/** A known CLI agent (Claude Code, ...) configured by name. */
export const presetAgentSpecSchema = z
  .object({
    preset: z.enum(["claude-code"]),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    model: z.string().optional(),
    timeout: timeoutSeconds.optional(),
  })
  .strict();

export const agentSpecSchema = z.union([
  commandAgentSpecSchema,
  scriptedAgentSpecSchema,
  shellAgentSpecSchema,
  anthropicAgentSpecSchema,
  openaiAgentSpecSchema,
  presetAgentSpecSchema,
]);

export type CommandAgentSpec = z.infer<typeof commandAgentSpecSchema>;
export type ScriptedAgentSpec = z.infer<typeof scriptedAgentSpecSchema>;
export type ShellAgentSpec = z.infer<typeof shellAgentSpecSchema>;
export type AnthropicAgentSpec = z.infer<typeof anthropicAgentSpecSchema>;
export type OpenaiAgentSpec = z.infer<typeof openaiAgentSpecSchema>;
export type PresetAgentSpec = z.infer<typeof presetAgentSpecSchema>;
export type AgentSpec = z.infer<typeof agentSpecSchema>;
