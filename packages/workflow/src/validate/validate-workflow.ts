import type { WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { checkConditions } from "./check-conditions.ts";
import { checkEdgeTemplates } from "./check-edge-templates.ts";
import { checkEdges } from "./check-edges.ts";
import { checkFanOuts } from "./check-fan-outs.ts";
import { checkFrontmatterSchemas } from "./check-frontmatter-schemas.ts";
import { checkGraphShape } from "./check-graph-shape.ts";
import { checkNames } from "./check-names.ts";
import { checkRolePolicies } from "./check-role-policies.ts";
import { checkSchedule } from "./check-schedule.ts";
import { checkTimeoutEdges } from "./check-timeout-edges.ts";
import { type EdgePathOf, listEdgePath } from "./edge-paths.ts";

export interface ValidateWorkflowOptions {
  /** Where each edge is written, so map-form edges are reported by their status key. */
  edgePathOf?: EdgePathOf;
}

/**
 * The semantic checks of DESIGN §2 on a normalised workflow: every error and warning at
 * once, each with the path of its field. The file loader adds the file positions.
 */
export function validateWorkflow(workflow: WorkflowNode, options: ValidateWorkflowOptions = {}): WorkflowIssue[] {
  const edgePathOf = options.edgePathOf ?? listEdgePath;
  return [
    ...checkNames(workflow),
    ...checkGraphShape(workflow, edgePathOf),
    ...checkEdges(workflow, edgePathOf),
    ...checkFanOuts(workflow, edgePathOf),
    ...checkTimeoutEdges(workflow, edgePathOf),
    ...checkConditions(workflow),
    ...checkFrontmatterSchemas(workflow),
    ...checkEdgeTemplates(workflow, edgePathOf),
    ...checkRolePolicies(workflow),
    ...checkSchedule(workflow),
  ];
}
