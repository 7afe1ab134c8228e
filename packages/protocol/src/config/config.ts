import { z } from "zod";
import { budgetInputSchema } from "../budget/budget.ts";
import { agentSpecSchema } from "./agent-spec.ts";

/** Prices in US dollars per million tokens. */
export const pricesSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheRead: z.number().nonnegative().optional(),
    cacheWrite: z.number().nonnegative().optional(),
  })
  .strict();
export type Prices = z.infer<typeof pricesSchema>;

export const providerSchema = z
  .object({
    /** `openai`: any server speaking the OpenAI Chat Completions API at `baseUrl`. */
    type: z.enum(["anthropic", "openai"]).default("anthropic"),
    baseUrl: z.string().optional(),
    apiKeyEnv: z.string().optional(),
  })
  .strict();
export type Provider = z.infer<typeof providerSchema>;

export const modelSchema = z
  .object({
    provider: z.string(),
    model: z.string(),
    maxTokens: z.number().int().positive().optional(),
    maxTurns: z.number().int().positive().optional(),
    /** The model's context window in tokens; default: uwf's table of Claude models, else 200,000. */
    contextWindow: z.number().int().positive().optional(),
    prices: pricesSchema.optional(),
  })
  .strict();
export type Model = z.infer<typeof modelSchema>;

/** How `uwf worker` retries a failing step and looks for work; its flags beat these. */
export const workerConfigSchema = z
  .object({
    /** How often a failed step is tried again before the thread is set `failed`. */
    retries: z.number().int().nonnegative().optional(),
    /** The wait before the first retry, in milliseconds; each next one waits twice as long. */
    backoffMs: z.number().int().nonnegative().optional(),
    /** The longest wait between retries, in milliseconds. */
    backoffMaxMs: z.number().int().nonnegative().optional(),
    /** How often an idle worker looks for a thread to claim, in milliseconds (jittered). */
    pollMs: z.number().int().positive().optional(),
  })
  .strict();
export type WorkerConfig = z.infer<typeof workerConfigSchema>;

/** The step leases every command takes on a thread (`docs/store.md`). */
export const leasesConfigSchema = z
  .object({
    /**
     * Seconds a lease lives without renewal (its holder renews it every quarter of this): how long a
     * stepper or worker that died on another host holds its threads. On one host a dead holder is taken
     * over at once. At least 2, so the one-second renewal always comes before the end.
     */
    lifetime: z.number().int().min(2).optional(),
  })
  .strict();
export type LeasesConfig = z.infer<typeof leasesConfigSchema>;

/** `config.yaml` in the uwf home. Every key is optional; an empty file is a valid config. */
export const configSchema = z
  .object({
    agents: z.record(z.string(), agentSpecSchema).default({}),
    defaultAgent: z.string().optional(),
    /** workflow name → role → agent alias. */
    agentOverrides: z.record(z.string(), z.record(z.string(), z.string())).default({}),
    providers: z.record(z.string(), providerSchema).default({}),
    models: z.record(z.string(), modelSchema).default({}),
    defaultModel: z.string().optional(),
    extractionModel: z.string().optional(),
    /** How often an agent is asked again after an invalid reply. */
    retries: z.number().int().nonnegative().default(2),
    /** Default agent timeout in seconds. */
    timeout: z.number().positive().default(1800),
    /** Every thread's limits, unless its workflow's `budget:`, `workflowBudgets` or a flag sets them. */
    budget: budgetInputSchema.optional(),
    /** workflow name → its threads' limits; beaten by the workflow's own `budget:` and by flags. */
    workflowBudgets: z.record(z.string(), budgetInputSchema).optional(),
    /** The store: `postgres://…` or `file` (the home's own files); beaten by `UWF_STORE` and `--store`. */
    store: z.string().min(1).optional(),
    /** `uwf worker`'s retries, backoff and polling (defaults in the engine's retry policy). */
    worker: workerConfigSchema.optional(),
    /** Step leases: their lifetime (default the engine's STEP_LEASE_TTL_MS, 15 s). */
    leases: leasesConfigSchema.optional(),
  })
  .strict();
export type Config = z.infer<typeof configSchema>;
