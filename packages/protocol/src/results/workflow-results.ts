import { z } from "zod";
import { addressSchema } from "../ids/address.ts";

/** One problem in a workflow file, located. */
export const workflowProblemSchema = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  path: z.string(),
  message: z.string(),
});
export type WorkflowProblem = z.infer<typeof workflowProblemSchema>;

export const workflowAddResultSchema = z.object({
  name: z.string(),
  hash: addressSchema,
  changed: z.boolean(),
  /**
   * What became of the workflow's `schedule:` (the schedule named after the workflow): `registered`,
   * `updated`, `unchanged`, `removed` (the workflow no longer declares one), or `taken` (a schedule of that
   * name was made by `uwf schedule add`, and is left as it is). Absent when neither has one.
   */
  schedule: z.enum(["registered", "updated", "unchanged", "removed", "taken"]).optional(),
});
export type WorkflowAddResult = z.infer<typeof workflowAddResultSchema>;

export const workflowValidateResultSchema = z.object({
  file: z.string(),
  valid: z.boolean(),
  name: z.string().nullable(),
  hash: addressSchema.nullable(),
  errors: z.array(workflowProblemSchema),
  warnings: z.array(workflowProblemSchema),
});
export type WorkflowValidateResult = z.infer<typeof workflowValidateResultSchema>;

export const workflowListResultSchema = z.object({
  workflows: z.array(
    z.object({
      name: z.string(),
      hash: addressSchema.nullable(),
      /** `thread`: a version stored threads run that no registered name points at (`workflow list --threads`). */
      source: z.enum(["registry", "project", "thread"]),
      file: z.string().nullable(),
      description: z.string().nullable(),
    }),
  ),
});
export type WorkflowListResult = z.infer<typeof workflowListResultSchema>;

export const workflowShowResultSchema = z.object({
  hash: addressSchema,
  workflow: z.record(z.string(), z.unknown()),
  mermaid: z.string().optional(),
});
export type WorkflowShowResult = z.infer<typeof workflowShowResultSchema>;

/** `uwf workflow new NAME`: the starter workflow and its scripted scenario it wrote. */
export const workflowNewResultSchema = z.object({
  name: z.string(),
  /** The workflow file written (absolute). */
  file: z.string(),
  /** The scenario that plays its model roles offline (absolute): `--agent scripted:FILE`. */
  scenario: z.string(),
  /** The command that runs it to its end offline. */
  run: z.string(),
});
export type WorkflowNewResult = z.infer<typeof workflowNewResultSchema>;
