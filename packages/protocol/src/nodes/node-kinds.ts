import type { z } from "zod";
import { fanOutNodeSchema, joinedBranchesNodeSchema } from "../branches/branch-nodes.ts";
import { evalReportNodeSchema } from "../eval/eval-report.ts";
import { exploreReportNodeSchema } from "../eval/explore-report.ts";
import { workflowNodeSchema } from "../workflow/workflow.ts";
import {
  agentRunNodeSchema,
  answerNodeSchema,
  outputNodeSchema,
  promptNodeSchema,
  textNodeSchema,
  threadStartNodeSchema,
  threadStepNodeSchema,
  transcriptNodeSchema,
} from "./nodes.ts";

/** Every uwf node kind and the schema that validates it. */
export const NODE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  "workflow/1": workflowNodeSchema,
  "thread-start/1": threadStartNodeSchema,
  "thread-step/1": threadStepNodeSchema,
  "output/1": outputNodeSchema,
  "text/1": textNodeSchema,
  "prompt/1": promptNodeSchema,
  "agent-run/1": agentRunNodeSchema,
  "transcript/1": transcriptNodeSchema,
  "eval-report/1": evalReportNodeSchema,
  "explore-report/1": exploreReportNodeSchema,
  "fan-out/1": fanOutNodeSchema,
  "branches/1": joinedBranchesNodeSchema,
  "answer/1": answerNodeSchema,
};
