import { type BranchTarget, START, type Transition, type WorkflowNode } from "@uwf/protocol";
import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { conditionStatus } from "../moderator/condition-status.ts";
import { declaredInputs } from "../moderator/declared-inputs.ts";
import { edgeTemplateVariables, safeParseEdgeTemplate } from "../moderator/edge-template.ts";
import { branchAnswers, listStatusBranches, type StatusBranch } from "../schema/status-branches.ts";
import type { EdgePathOf } from "./edge-paths.ts";

/** Fields every step has besides its schema's, and what `start`, `thread` and `inputs` hold (see renderEdgePrompt). */
const STEP_VARIABLES = ["$status", "reason", "_body"];
const CONTEXT_VARIABLES = ["start", "thread", "inputs"];
const CONTEXT_FIELDS: Record<string, string[]> = { start: ["prompt", "workflow", "cwd", "inputs"], thread: ["id"] };

/**
 * Each edge prompt must parse as Liquid and read only what its source can produce: at `$START`
 * the thread's `start`, `thread` and start inputs; after a role, the fields of that role's reply
 * on this edge, the step variables and the inputs. A role with per-status branches (see
 * listStatusBranches) reports different fields per status: an edge taken on status S (its
 * `status:`, its map key, or a condition that only tests `$status`) may read the fields of the
 * branches answering S; any other edge only the fields every branch has. A field that may be
 * missing where it is read is a warning unless the template guards it (`{% if %}`, `| default`):
 * it renders empty. The same mistakes would otherwise surface only when a thread reaches the edge.
 */
export function checkEdgeTemplates(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const inputs = declaredInputs(workflow.inputs);
  const joinRoles = new Set(
    Object.values(workflow.graph).flatMap((edges) => edges.flatMap((edge) => (edge.fanOut ? [edge.role] : []))),
  );
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    const role = workflow.roles[from];
    const branches = from === START || role === undefined ? null : listStatusBranches(role.frontmatter ?? {});
    if (from !== START && branches === null) continue; // the source is not a role; reported by the graph checks
    transitions.forEach((transition, index) => {
      // Routing a join role's reply, conditions and prompts also see its fan-out's `branches`.
      const afterJoin = joinRoles.has(from) ? ["branches"] : [];
      // A role that takes a typed answer: its answering step's prompts read the person's `answer`.
      const answered = role?.answer === undefined ? [] : ["answer"];
      for (const template of templatesOf(transition, edgePathOf(from, index), [...afterJoin, ...answered])) {
        const parsed = safeParseEdgeTemplate(template.source);
        if (!parsed.success) {
          issues.push({
            severity: "error",
            path: template.path,
            message: `template does not parse: ${parsed.problem}`,
          });
          continue;
        }
        const variables = edgeTemplateVariables(parsed.value);
        const edge: EdgeScope = {
          from,
          path: template.path,
          source: template.source,
          inputs,
          fields: branches === null ? null : fieldsOnEdge(branches, edgeStatus(workflow, transition)),
          extra: template.extra,
        };
        for (const segments of variables) {
          const issue = checkVariable(segments, edge);
          if (issue !== null) issues.push(issue);
        }
      }
    });
  }
  return dedupe(issues);
}

interface EdgeTemplateSource {
  source: string;
  path: FieldPath;
  /** Names the template may read besides the edge's own (`branches` at a join, a `foreach` item and `index`). */
  extra: string[];
}

/**
 * The templates of an edge: its prompt; on a fan-out, the join's prompt (which sees `branches`),
 * each branch's prompt and every string of its inputs (which see a `foreach` item and `index`).
 */
function templatesOf(transition: Transition, path: FieldPath, extra: string[]): EdgeTemplateSource[] {
  const fanOut = transition.fanOut;
  if (fanOut === undefined) return [{ source: transition.prompt, path: [...path, "prompt"], extra }];
  const templates: EdgeTemplateSource[] = [
    { source: transition.prompt, path: [...path, "join", "prompt"], extra: ["branches"] },
  ];
  const addBranch = (branch: BranchTarget, at: FieldPath, names: string[]) => {
    if (branch.prompt !== undefined) templates.push({ source: branch.prompt, path: [...at, "prompt"], extra: names });
    if (branch.inputs !== undefined) {
      for (const [field, source] of stringsIn(branch.inputs, [...at, "inputs"])) {
        templates.push({ source, path: field, extra: names });
      }
    }
  };
  for (const [key, branch] of Object.entries(fanOut.parallel ?? {})) addBranch(branch, [...path, "parallel", key], []);
  if (fanOut.foreach !== null) addBranch(fanOut.foreach.branch, [...path, "branch"], [fanOut.foreach.as, "index"]);
  return templates;
}

/** Every string in a value, with its path. */
function stringsIn(value: unknown, path: FieldPath): [FieldPath, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsIn(item, [...path, index]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([name, item]) => stringsIn(item, [...path, name]));
  }
  return [];
}

interface EdgeScope {
  from: string;
  path: FieldPath;
  source: string;
  inputs: { names: string[]; required: string[] } | null;
  /** What the source role's reply holds on this edge; null at `$START`. */
  fields: EdgeFields | null;
  /** Names the template may read besides those (see EdgeTemplateSource). */
  extra: string[];
}

interface EdgeFields {
  /** The status this edge is taken on, when it is taken on one. */
  status: string | null;
  /** Field name → whether every reply that takes this edge has it. */
  available: Map<string, boolean>;
  /** Fields some replies of the role have but not every one taking this edge, with the statuses that have them. */
  partial: Map<string, string[]>;
}

function checkVariable(segments: string[], edge: EdgeScope): WorkflowIssue | null {
  const [root, field] = segments;
  if (root === undefined) return null;
  const error = (message: string): WorkflowIssue => ({ severity: "error", path: edge.path, message });
  const warning = (message: string): WorkflowIssue => ({ severity: "warning", path: edge.path, message });
  if (edge.extra.includes(root)) return null;

  if (CONTEXT_VARIABLES.includes(root)) {
    if (root === "inputs" || (root === "start" && field === "inputs")) {
      const name = root === "inputs" ? field : segments[2];
      return name === undefined ? null : checkInput(name, `${root === "inputs" ? "" : "start."}inputs.${name}`, edge);
    }
    const known = CONTEXT_FIELDS[root];
    if (known !== undefined && field !== undefined && !known.includes(field)) {
      return error(`unknown variable "${root}.${field}": ${root} has ${known.join(", ")}`);
    }
    return null;
  }
  const fields = edge.fields;
  if (fields === null) {
    if (edge.inputs?.names.includes(root)) return checkInput(root, root, edge);
    return error(
      `unknown variable "${root}": at $START only start, thread and the start inputs exist${inputHint(edge)}`,
    );
  }
  if (STEP_VARIABLES.includes(root)) return null;
  const always = fields.available.get(root);
  if (always === true) return null;
  if (always === false) {
    if (isGuarded(edge.source, root)) return null;
    const when = fields.status === null ? "" : ` with $status ${fields.status}`;
    return warning(
      `"${root}" is optional for role ${edge.from}${when}: it renders empty when the reply leaves it out (guard it with {% if ${root} %} or | default)`,
    );
  }
  if (edge.inputs?.names.includes(root)) return checkInput(root, root, edge);
  const statuses = fields.partial.get(root);
  if (statuses !== undefined) {
    const where =
      fields.status === null
        ? "this edge is not taken on one status (give it a status, or a condition that only tests $status)"
        : `this edge is taken with $status ${fields.status}`;
    return error(
      `unknown variable "${root}": role ${edge.from} reports it only with $status ${statuses.join(", ")}, and ${where}`,
    );
  }
  const offer = [
    ...fields.available.keys(),
    ...STEP_VARIABLES,
    ...CONTEXT_VARIABLES,
    ...edge.extra,
    ...(edge.inputs?.names ?? []),
  ];
  return error(`unknown variable "${root}": role ${edge.from} provides ${[...new Set(offer)].join(", ")}`);
}

function checkInput(name: string, written: string, edge: EdgeScope): WorkflowIssue | null {
  if (edge.inputs === null) {
    return {
      severity: "error",
      path: edge.path,
      message: `unknown input "${name}": the workflow declares no inputs${inputHint(edge)}`,
    };
  }
  if (!edge.inputs.names.includes(name)) {
    return {
      severity: "error",
      path: edge.path,
      message: `unknown input "${name}": the workflow's inputs are ${edge.inputs.names.join(", ") || "none"}`,
    };
  }
  if (edge.inputs.required.includes(name) || isGuarded(edge.source, written)) return null;
  return {
    severity: "warning",
    path: edge.path,
    message: `input "${name}" is optional: it renders empty when a thread starts without it (guard it with {% if ${written} %} or | default)`,
  };
}

function inputHint(edge: EdgeScope): string {
  return edge.inputs === null ? ' (declare start inputs under "inputs:")' : "";
}

/** The status an edge is taken on: its own `status`, or the one its condition tests and nothing else. */
function edgeStatus(workflow: WorkflowNode, transition: Transition): string | null {
  if (transition.status !== null) return transition.status;
  if (transition.condition === null) return null;
  const condition = workflow.conditions[transition.condition];
  return condition === undefined ? null : conditionStatus(condition.expression);
}

function fieldsOnEdge(branches: StatusBranch[], status: string | null): EdgeFields {
  const taking = status === null ? branches : branches.filter((branch) => branchAnswers(branch, status));
  const relevant = taking.length === 0 ? branches : taking;
  const available = new Map<string, boolean>();
  const names = new Set(relevant.flatMap((branch) => Object.keys(branch.properties)));
  for (const name of names) {
    if (!relevant.every((branch) => name in branch.properties)) continue;
    available.set(
      name,
      relevant.every((branch) => branch.required.includes(name)),
    );
  }
  const partial = new Map<string, string[]>();
  for (const branch of branches) {
    for (const name of Object.keys(branch.properties)) {
      if (available.has(name)) continue;
      const statuses = partial.get(name) ?? [];
      partial.set(name, [...new Set([...statuses, ...(branch.statuses ?? ["(any other)"])])]);
    }
  }
  return { status, available, partial };
}

/** `{% if name %}`, `{% unless name %}`, `{% elsif name %}` or `name | default` guard a field that may be missing. */
function isGuarded(source: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const tested = new RegExp(`\\{%-?\\s*(?:if|unless|elsif)\\b[^%]*?(?<![\\w.])${escaped}(?![\\w])`);
  const defaulted = new RegExp(`(?<![\\w.])${escaped}\\s*\\|\\s*default\\b`);
  return tested.test(source) || defaulted.test(source);
}

/** A template that uses one unknown name twice needs saying once. */
function dedupe(issues: WorkflowIssue[]): WorkflowIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path.join("\u0000")}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
