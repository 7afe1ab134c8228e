import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { nodeSchema } from "../json/node-schema.ts";
import { threadIdSchema, threadStatusSchema } from "../threads/thread-record.ts";
import { evalAssertionSchema } from "./eval-assertion.ts";
import { evalGateSchema } from "./eval-gate.ts";
import { evalSampleSchema } from "./eval-sample.ts";

/** What a report scored: the threads a suite generated, or threads selected from the store. */
export const evalSourceSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("suite"),
      /** The suite file as given (absolute), and its text as a `text/1` node. */
      file: z.string(),
      text: addressSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal("selection"),
      threads: z.array(threadIdSchema),
      forksOf: z.object({ thread: threadIdSchema, recursive: z.boolean() }).nullable(),
      workflow: z.string().nullable(),
      status: threadStatusSchema.nullable(),
    })
    .strict(),
]);
export type EvalSource = z.infer<typeof evalSourceSchema>;

/**
 * An evaluation report, immutable in the object store and named in the ref store by an id (see
 * RefStore.saveEvalReport): what was scored, by which assertions, each sample's scores and the head it
 * was read at. Its summary (rates, intervals, percentiles, distributions) is computed from the samples
 * when it is shown, so a report never disagrees with its own samples.
 */
export const evalReportNodeSchema = nodeSchema("eval-report/1", {
  /** The suite's name, or a label of the selection. */
  name: z.string(),
  createdAt: z.iso.datetime(),
  source: evalSourceSchema,
  assertions: z.array(evalAssertionSchema),
  samples: z.array(evalSampleSchema),
  /** Runs of the suite that could not be started or finished (bad workflow, missing fixture, the suite's budget), so never scored. */
  unstarted: z.array(
    z
      .object({
        case: z.string().nullable(),
        variant: z.string().nullable(),
        repeat: z.number().int().nonnegative().nullable(),
        error: z.string(),
      })
      .strict(),
  ),
  gate: evalGateSchema.nullable(),
  /** The report `uwf eval rescore` scored the same threads of again; null otherwise. */
  rescoredFrom: addressSchema.nullable(),
});
export type EvalReportNode = z.infer<typeof evalReportNodeSchema>;
