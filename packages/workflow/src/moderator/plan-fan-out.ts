import { type BranchTarget, type FanOut, type PlannedBranch, parallelBranches, type WorkflowNode } from "@uwf/protocol";
import { FanOutError } from "../errors/fan-out-error.ts";
import { compileCondition, describeJsonataError, type JsonataCondition } from "./compile-condition.ts";
import type { CompiledEdge } from "./compile-workflow.ts";
import { type EdgeTemplate, safeParseEdgeTemplate } from "./edge-template.ts";
import { historyFunctions } from "./history-functions.ts";
import type { ModeratorHistory, PlannedFanOut } from "./moderator-history.ts";
import { isPlainSubstitution } from "./plain-substitution.ts";
import { describeRenderError, edgePromptContext, renderEdgeTemplate } from "./render-edge-prompt.ts";

/** jsonata's code for "ran past options.timeout". */
const TIMEOUT_CODE = "D1012";

export interface PlanFanOutOptions {
  workflow: WorkflowNode;
  /** The role whose reply (the history's newest step) routed to the fan-out. */
  from: string;
  /** The fan-out edge (its transition has `fanOut`). */
  edge: CompiledEdge;
  history: ModeratorHistory;
  timeoutMs: number;
}

/**
 * The branches a reply's fan-out edge starts (DESIGN31 "Workflow syntax"): for `parallel` one per
 * key in declaration order; for `foreach` one per item of the list the expression gives (over the
 * reply's fields, `start` and `steps`, as conditions are), keyed "0", "1", …. Each branch's prompt
 * and every string of its inputs are rendered as edge prompts are, with the item under its `as`
 * name and `index` for `foreach`. Anything that does not expand is a FanOutError naming the field.
 */
export async function planFanOut(options: PlanFanOutOptions): Promise<PlannedFanOut> {
  const { workflow, from, edge, history } = options;
  const fanOut = edge.transition.fanOut as FanOut;
  const context = edgePromptContext(from, history, workflow);
  const fail = (field: string, branch: string | null, reason: string, cause?: unknown): never => {
    throw new FanOutError(from, edge.index, field, branch, reason, { cause });
  };
  const prepared = prepare(fanOut);
  const branches: PlannedBranch[] = [];
  if (fanOut.foreach !== null) {
    const items = await evaluateForeach(fanOut.foreach.expression, prepared.foreach, options, fail);
    const { as, branch } = fanOut.foreach;
    for (let index = 0; index < items.length; index++) {
      const key = String(index);
      const itemContext = { ...context, index, [as]: items[index] };
      branches.push(
        await planBranch(key, branch, prepared.branch("branch"), itemContext, {
          fail: (field, reason, cause) => fail(field, key, `${reason} (item ${index})`, cause),
        }),
      );
    }
  } else {
    for (const [key, branch] of parallelBranches(fanOut)) {
      const field = `parallel.${key}`;
      branches.push(
        await planBranch(key, branch, prepared.branch(field), context, {
          fail: (at, reason, cause) => fail(at, key, reason, cause),
        }),
      );
    }
  }
  return {
    kind: fanOut.foreach !== null ? "foreach" : "parallel",
    edge: edge.index,
    join: { role: edge.transition.role, policy: fanOut.policy, failFast: fanOut.failFast },
    maxConcurrent: fanOut.maxConcurrent,
    onCancel: fanOut.onCancel,
    branches,
  };
}

type Fail = (field: string, reason: string, cause?: unknown) => never;

/** A branch's templates, parsed once per plan and reused for every item. */
interface PreparedBranch {
  field: string;
  template(source: string, field: string, fail: Fail): string | EdgeTemplate;
}

interface PreparedFanOut {
  foreach: () => JsonataCondition;
  branch(field: string): PreparedBranch;
}

const preparedByFanOut = new WeakMap<FanOut, PreparedFanOut>();

/** A fan-out's `foreach` compiled and its templates parsed once per workflow object, as compileWorkflow does for edges. */
function prepare(fanOut: FanOut): PreparedFanOut {
  const cached = preparedByFanOut.get(fanOut);
  if (cached !== undefined) return cached;
  let foreach: JsonataCondition | undefined;
  const templates = new Map<string, string | EdgeTemplate>();
  const prepared: PreparedFanOut = {
    foreach: () => {
      // Loaded lazily and shared with conditions' compiler: the same limits on depth and sequence length.
      foreach ??= compileCondition("foreach", fanOut.foreach?.expression ?? "").jsonata();
      return foreach;
    },
    branch: (field) => ({
      field,
      template(source, at, fail) {
        const cachedTemplate = templates.get(source);
        if (cachedTemplate !== undefined) return cachedTemplate;
        let template: string | EdgeTemplate = source;
        if (!isPlainSubstitution(source)) {
          const parsed = safeParseEdgeTemplate(source);
          if (!parsed.success) return fail(at, `does not parse: ${parsed.problem}`, parsed.cause);
          template = parsed.value;
        }
        templates.set(source, template);
        return template;
      },
    }),
  };
  preparedByFanOut.set(fanOut, prepared);
  return prepared;
}

async function evaluateForeach(
  expression: string,
  compile: () => JsonataCondition,
  options: PlanFanOutOptions,
  fail: (field: string, branch: string | null, reason: string, cause?: unknown) => never,
): Promise<unknown[]> {
  const { history, timeoutMs } = options;
  const shown = JSON.stringify(expression);
  let result: unknown;
  try {
    const { expression: compiled, limits } = compile();
    limits.timeout = timeoutMs;
    const last = history.steps.at(-1);
    // The reply's fields by name (`files`), and `start` and `steps` as a condition sees them.
    const input = { ...last?.output, start: history.start, steps: history.steps };
    result = await compiled.evaluate(input, historyFunctions(history.steps));
  } catch (error) {
    const { code, message } = describeJsonataError(error);
    if (code === TIMEOUT_CODE) return fail("foreach", null, `${shown} ran past its ${timeoutMs} ms limit`, error);
    return fail("foreach", null, `${shown} failed: ${message}`, error);
  }
  if (Array.isArray(result)) return [...result];
  const got = result === undefined ? "nothing (is the field missing from the reply?)" : describeKind(result);
  return fail("foreach", null, `${shown} must give a list, one item per branch, but gave ${got}`);
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

async function planBranch(
  key: string,
  target: BranchTarget,
  prepared: PreparedBranch,
  context: Record<string, unknown>,
  errors: { fail: Fail },
): Promise<PlannedBranch> {
  const render = async (source: string, field: string): Promise<string> => {
    const template = prepared.template(source, field, errors.fail);
    try {
      return await renderEdgeTemplate(template, context);
    } catch (error) {
      return errors.fail(field, `cannot be rendered: ${describeRenderError(error)}`, error);
    }
  };
  const promptField = `${prepared.field}.prompt`;
  const prompt = target.prompt === undefined ? "" : (await render(target.prompt, promptField)).trim();
  if (target.role !== undefined && prompt === "") {
    errors.fail(promptField, `rendered empty; the branch's role ${target.role} needs a prompt`);
  }
  const planned: PlannedBranch = { key, role: target.role ?? null, workflow: target.workflow ?? null, prompt };
  if (target.inputs !== undefined) {
    planned.inputs = (await renderValue(target.inputs, `${prepared.field}.inputs`, render)) as Record<string, unknown>;
  }
  return planned;
}

/** Every string of a value rendered as a template, at any depth; other values as they are. */
async function renderValue(
  value: unknown,
  field: string,
  render: (source: string, field: string) => Promise<string>,
): Promise<unknown> {
  if (typeof value === "string") return render(value, field);
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      items.push(await renderValue(value[index], `${field}[${index}]`, render));
    }
    return items;
  }
  if (typeof value === "object" && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value))
      result[name] = await renderValue(item, `${field}.${name}`, render);
    return result;
  }
  return value;
}
