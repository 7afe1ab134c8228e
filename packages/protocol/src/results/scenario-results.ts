import { z } from "zod";
import { addressSchema } from "../ids/address.ts";

/**
 * One entry of a scenario, as `uwf scenario export` writes it (the `scripted` agent also reads hand-written
 * entries with a raw `reply:` or a `branch: "*"`): the role the moderator chose, the reply's fields and body.
 */
export const scenarioEntrySchema = z
  .object({
    role: z.string().min(1),
    output: z.record(z.string(), z.unknown()),
    body: z.string(),
    /** A branch's step: the branch's key. Absent on the thread's own steps. */
    branch: z.string().min(1).optional(),
    /**
     * On a step a person's answer led to: the answer to the suspension before it, as text (`uwf resume -p`)
     * or as a typed answer's fields (`uwf resume --answer`), or the prompt that continued the thread after
     * it ended. `uwf run` resumes with it before playing the step.
     */
    answer: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  })
  .strict();
export type ScenarioEntry = z.infer<typeof scenarioEntrySchema>;

/** One thread's steps, with what `uwf run` needs to start it again. */
export const scenarioThreadSchema = z
  .object({
    /** The thread the steps were recorded from. */
    thread: z.string(),
    /** The workflow's name, and the address of the exact version the thread ran (`uwf run ADDRESS` runs that one). */
    workflow: z.object({ name: z.string(), address: addressSchema }).strict(),
    /** The start prompt. */
    prompt: z.string(),
    /** The start inputs; absent when the thread was started without any. */
    inputs: z.record(z.string(), z.unknown()).optional(),
    steps: z.array(scenarioEntrySchema),
  })
  .strict();
export type ScenarioThread = z.infer<typeof scenarioThreadSchema>;

/**
 * A scenario file: one thread (the scripted agent's `{ steps }` format, with the thread's fields beside),
 * or several (`{ threads }`, played one at a time as `--agent scripted:FILE#THREAD`). `uwf scenario
 * export --json` without `-o` prints it.
 */
export const scenarioDocumentSchema = z.union([
  scenarioThreadSchema,
  z.object({ threads: z.array(scenarioThreadSchema) }).strict(),
]);
export type ScenarioDocument = z.infer<typeof scenarioDocumentSchema>;

/** `uwf scenario export -o FILE --json`: the file written, its format, and each thread's step count. */
export const scenarioExportResultSchema = z
  .object({
    file: z.string(),
    format: z.enum(["json", "yaml"]),
    threads: z.array(
      z
        .object({
          thread: z.string(),
          workflow: z.string(),
          /** Entries written: the thread's own steps and its branches'. */
          steps: z.number().int().nonnegative(),
          /** Suspensions whose answer the file carries. */
          answers: z.number().int().nonnegative(),
        })
        .strict(),
    ),
  })
  .strict();
export type ScenarioExportResult = z.infer<typeof scenarioExportResultSchema>;
