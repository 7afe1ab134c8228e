import { z } from "zod";
import { budgetInputSchema } from "../budget/budget.ts";

/**
 * An `assert:` list of a suite file: each item a mapping (`{ name, expr }`, `{ outcome: approved }`, …),
 * kept as written; @uwf/eval's assertion parser reads each (with its place in the file).
 */
const suiteAssertListSchema = z.array(z.record(z.string(), z.unknown()), "expected a list of assertions (mappings)");

/** A case of a suite: the prompt (or prompt file) and inputs its threads start with, and a fixture folder. */
export const suiteCaseFileSchema = z
  .object({
    name: z.string().min(1, "expected a case name"),
    prompt: z.string().min(1, "expected a prompt").optional(),
    /** Relative to the suite file. */
    promptFile: z.string().min(1).optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    /** A folder copied into each run's fresh working directory; relative to the suite file. */
    fixture: z.string().min(1).optional(),
    assert: suiteAssertListSchema.optional(),
  })
  .strict();
export type SuiteCaseFile = z.infer<typeof suiteCaseFileSchema>;

/** A variant: what its runs change (agent, model, workflow, config overrides). */
export const suiteVariantFileSchema = z
  .object({
    name: z.string().min(1, "expected a variant name").optional(),
    /** As `--agent`: a config alias, or `scripted:FILE` relative to the suite file. */
    agent: z.string().min(1).optional(),
    /** Set as the model of the agents it uses (`defaultModel`, and the `model` of anthropic, openai and preset agents). */
    model: z.string().min(1).optional(),
    /** A workflow file (relative to the suite file) or a registered name. */
    workflow: z.string().min(1).optional(),
    /** Laid over the home's config.yaml for its runs (checked with the config schema). */
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type SuiteVariantFile = z.infer<typeof suiteVariantFileSchema>;

/** The suite's CI gate, in the file's snake_case (EvalGate once loaded). */
export const suiteGateFileSchema = z
  .object({
    min_pass_rate: z.number().min(0).max(1).optional(),
    min_case_pass_rate: z.number().min(0).max(1).optional(),
    pass_k: z.number().int("expected a whole number").positive().optional(),
    allow_errors: z.boolean().optional(),
  })
  .strict();

/**
 * An eval suite file (`uwf eval --suite FILE`, docs/suites.md): cases × variants × `repeat` threads, or
 * `count` forks per variant of one node (`from:`), their budgets, their assertions and the gate.
 * Which of `cases` and `from` it has, and the other rules between fields, @uwf/eval's loadSuite checks.
 */
export const suiteFileSchema = z
  .object({
    name: z.string().min(1, "expected the suite's name"),
    description: z.string().optional(),
    /** A workflow file (relative to the suite file) or a registered name; variants may override it. */
    workflow: z.string().min(1).optional(),
    repeat: z.number().int("expected a whole number").positive().optional(),
    cases: z.array(suiteCaseFileSchema).min(1, "expected at least one case").optional(),
    /** A thread (forked at its head) or a step node. */
    from: z.string().min(1).optional(),
    count: z.number().int("expected a whole number").positive().optional(),
    variants: z.array(suiteVariantFileSchema).min(1, "expected at least one variant").optional(),
    /** Each thread's limits. */
    budget: budgetInputSchema.optional(),
    /** The whole suite's spend limit, in US dollars. */
    max_cost_usd: z.number().positive("expected a number of US dollars above 0").optional(),
    assert: suiteAssertListSchema.optional(),
    gate: suiteGateFileSchema.optional(),
  })
  .strict();
export type SuiteFile = z.infer<typeof suiteFileSchema>;
