import { answerSchemaOf, END, messageOf, START, type WorkflowNode } from "@uwf/protocol";
import { EdgePromptError } from "../errors/edge-prompt-error.ts";
import { allBranchProperties, listStatusBranches } from "../schema/status-branches.ts";
import { declaredInputs } from "./declared-inputs.ts";
import {
  EDGE_PROMPT_MEMORY_LIMIT,
  EDGE_PROMPT_RENDER_LIMIT_MS,
  type EdgeTemplate,
  edgeTemplateEngine,
  safeParseEdgeTemplate,
} from "./edge-template.ts";
import type { ModeratorHistory } from "./moderator-history.ts";
import { isPlainSubstitution, renderPlainSubstitution } from "./plain-substitution.ts";

export interface RenderEdgePromptOptions {
  /** The edge's prompt: its source text (plain substitutions render without liquidjs) or a parsed template. */
  template: string | EdgeTemplate;
  from: string;
  to: string;
  history: ModeratorHistory;
  /** The workflow: what its roles and inputs declare renders empty when a reply or a start leaves it out. */
  workflow?: WorkflowNode;
}

/**
 * What an edge prompt may read (DESIGN §2): `start`, `thread` and `inputs` (the start inputs),
 * each input also by its own name; after a step, that step's output fields too (winning over an
 * input of the same name) and `_body`. `start`, `thread` and `inputs` win over a field of the
 * same name, so a template always means the same thing. A field the role declares, or an input
 * the workflow declares, that is missing is null: it renders empty, as Liquid renders a missing
 * optional value, instead of failing the step. At a fan-out's join (the history has `branches`),
 * `branches` holds the branches' results, winning over a field of that name too. After a role that
 * declares `answer:`, `answer` is the person's answer its step was given (`uwf resume --answer`), null
 * on a step that answered none, winning over a field of that name.
 */
export function edgePromptContext(
  from: string,
  history: ModeratorHistory,
  workflow?: WorkflowNode,
): Record<string, unknown> {
  const declared = workflow === undefined ? undefined : declaredNames(workflow);
  const inputs = { ...nulls(declared?.inputs), ...history.start.inputs };
  const base: Record<string, unknown> = { start: { ...history.start, inputs }, thread: history.thread, inputs };
  if (history.branches !== undefined) base.branches = history.branches;
  const last = history.steps.at(-1);
  if (from === START || last === undefined) return { ...inputs, ...base };
  const answer = answerContext(last.answer, workflow?.roles[last.role]);
  return { ...nulls(declared?.fields(last.role)), ...inputs, ...last.output, _body: last.body, ...answer, ...base };
}

/**
 * `answer` for an edge prompt: the person's answer, with every field its schema declares that it left
 * out as null (it renders empty); null after a step that answered none of a role that takes one.
 */
function answerContext(
  answer: Record<string, unknown> | undefined,
  role: WorkflowNode["roles"][string] | undefined,
): { answer?: Record<string, unknown> | null } {
  const schema = role === undefined ? null : answerSchemaOf(role);
  if (answer === undefined) return schema === null ? {} : { answer: null };
  const properties = schema?.properties;
  const declared = properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
  return { answer: { ...nulls(declared), ...answer } };
}

interface DeclaredNames {
  inputs: string[];
  fields(role: string): string[];
}

const declaredByWorkflow = new WeakMap<WorkflowNode, DeclaredNames>();

function declaredNames(workflow: WorkflowNode): DeclaredNames {
  let declared = declaredByWorkflow.get(workflow);
  if (declared === undefined) {
    const fieldsByRole = new Map<string, string[]>();
    declared = {
      inputs: declaredInputs(workflow.inputs)?.names ?? [],
      fields(role) {
        let fields = fieldsByRole.get(role);
        if (fields === undefined) {
          const schema = workflow.roles[role]?.frontmatter;
          fields = schema === undefined ? [] : Object.keys(allBranchProperties(listStatusBranches(schema)));
          fieldsByRole.set(role, fields);
        }
        return fields;
      },
    };
    declaredByWorkflow.set(workflow, declared);
  }
  return declared;
}

function nulls(names: readonly string[] | undefined): Record<string, null> {
  const result: Record<string, null> = {};
  for (const name of names ?? []) result[name] = null;
  return result;
}

/** Renders an edge prompt, trimmed. An undefined variable, or an empty prompt to a role, is an `EdgePromptError`. */
export async function renderEdgePrompt(options: RenderEdgePromptOptions): Promise<string> {
  const { from, to, history } = options;
  let template = options.template;
  if (typeof template === "string" && !isPlainSubstitution(template)) {
    const parsed = safeParseEdgeTemplate(template);
    if (!parsed.success) {
      throw new EdgePromptError(from, to, `cannot be rendered: ${parsed.problem}`, { cause: parsed.cause });
    }
    template = parsed.value;
  }
  let rendered: string;
  try {
    rendered = await renderEdgeTemplate(template, edgePromptContext(from, history, options.workflow));
  } catch (error) {
    throw new EdgePromptError(from, to, `cannot be rendered: ${describeRenderError(error)}`, { cause: error });
  }
  const prompt = rendered.trim();
  if (prompt === "" && to !== END) throw new EdgePromptError(from, to, "rendered empty; the next role needs a prompt");
  return prompt;
}

/** Renders a prompt template (source text or parsed) over a context, untrimmed; throws what liquidjs throws. */
export async function renderEdgeTemplate(
  template: string | EdgeTemplate,
  context: Record<string, unknown>,
): Promise<string> {
  const plain = typeof template === "string" ? renderPlainSubstitution(template, context) : undefined;
  if (plain !== undefined) return plain;
  if (typeof template !== "string") return edgeTemplateEngine().render(template, context);
  // A plain substitution of a value Liquid prints its own way (null, a list, an undefined variable).
  const parsed = safeParseEdgeTemplate(template);
  if (!parsed.success) throw parsed.cause;
  return edgeTemplateEngine().render(parsed.value, context);
}

/** liquidjs names its limits tersely ("memory alloc limit exceeded, line:1, col:1"); say which limit, and its number. */
export function describeRenderError(error: unknown): string {
  const message = messageOf(error);
  const where = /, (line:\d+, col:\d+)/.exec(message)?.[1];
  const at = where === undefined ? "" : ` (${where})`;
  if (message.includes("template render limit exceeded")) {
    return `it ran longer than the ${EDGE_PROMPT_RENDER_LIMIT_MS} ms render limit${at}`;
  }
  if (message.includes("memory alloc limit exceeded")) {
    return `it built more than the ${EDGE_PROMPT_MEMORY_LIMIT.toLocaleString("en-US")} characters or list items a render may${at}`;
  }
  return message;
}
