import { type EvalAssertion, evalAssertionSchema, THREAD_STATUSES } from "@uwf/protocol";
import { compileCondition, describeJsonataError } from "@uwf/workflow";
import { parse as parseYaml } from "yaml";
import { InvalidAssertionError } from "../errors/invalid-assertion-error.ts";

/** `NAME=…` or `NAME*WEIGHT=…`: a plain word before the first `=`. */
const NAMED = /^([A-Za-z0-9_.-]+)(?:\*([0-9]+(?:\.[0-9]+)?|\.[0-9]+))?=([\s\S]*)$/;
/** `outcome: STATUS`, `status: STATUS`, `command: CMD`, `judge: WORKFLOW[#ROLE]`. */
const SHORTHAND = /^(outcome|status|command|judge)\s*:\s*([\s\S]*)$/;
/** The keys of a suite item (or flow mapping) that say which kind of assertion it is. */
const KIND_KEYS = ["expr", "outcome", "status", "command", "judge"] as const;
/** JSONata's node types of a literal: an expression of one alone never depends on the thread. */
const CONSTANT_NODES: ReadonlySet<string> = new Set(["string", "number", "value"]);

/**
 * One `--assert VALUE` of the command line, as an EvalAssertion:
 *
 * - `NAME=JSONATA` (`approved=outcome.status = "approved"`): the name is what comes before the first
 *   `=` when it is a plain word (`[A-Za-z0-9_.-]+`); otherwise the whole value is the expression, and
 *   its text the name;
 * - `NAME*2=…`: the same, with a weight;
 * - the shorthands `outcome: STATUS`, `status: STATUS`, `command: CMD` (run with `sh -c`) and
 *   `judge: WORKFLOW[#ROLE]`, each optionally named (`ok=outcome: approved`);
 * - a YAML/JSON flow mapping in the suite's item form (`{name: tests, command: [sh, check.sh], weight: 2}`).
 *
 * A JSONata expression is compiled here, so one that does not parse is refused before anything is
 * scored. Throws InvalidAssertionError.
 */
export function parseAssertionArgument(value: string): EvalAssertion {
  const text = value.trim();
  if (text === "") throw new InvalidAssertionError({ assertion: value, problem: "it is empty" });
  if (text.startsWith("{")) return parseFlowMapping(text);

  const named = NAMED.exec(text);
  const name = named === null ? null : (named[1] as string);
  const weight = named?.[2] === undefined ? undefined : Number(named[2]);
  const body = named === null ? text : (named[3] as string).trim();
  const label = name ?? text;
  if (body === "") throw new InvalidAssertionError({ assertion: label, problem: "nothing follows the `=`" });
  const withWeight = weight === undefined ? {} : { weight };

  const shorthand = SHORTHAND.exec(body);
  if (shorthand !== null) {
    const key = shorthand[1] as (typeof KIND_KEYS)[number];
    const argument = (shorthand[2] as string).trim();
    return normalizeSuiteAssertion({ name: label, ...withWeight, [key]: argument });
  }
  return checkAssertion({ kind: "jsonata", name: label, ...withWeight, expr: body });
}

/**
 * Every `--assert` of a command line, in order, refusing two of one name. Throws InvalidAssertionError.
 */
export function parseAssertionArguments(values: readonly string[]): EvalAssertion[] {
  const assertions = values.map(parseAssertionArgument);
  checkUniqueAssertionNames(assertions);
  return assertions;
}

/**
 * One item of a suite's `assertions:` list (already parsed from YAML), as an EvalAssertion. An item is a
 * string (read as `--assert` reads it) or a mapping with one of the keys `expr:` (JSONata),
 * `outcome:`, `status:`, `command:` (a string run with `sh -c`, or a list run as it is, with
 * optional `cwd:` and `timeoutSeconds:`) or `judge:` (`WORKFLOW[#ROLE]`, with optional `role:`,
 * `agent:` and `prompt:`), and optional `name:` and `weight:`. A mapping with `kind:` is taken in
 * the stored form (EvalAssertion) as it is. The name defaults to the item's own text (`outcome:
 * approved`, the expression). Throws InvalidAssertionError, whose `field` names the item's key at
 * fault, so a suite loader can point at its line.
 */
export function normalizeSuiteAssertion(item: unknown): EvalAssertion {
  if (typeof item === "string") return parseAssertionArgument(item);
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    throw new InvalidAssertionError({
      assertion: describeItem(item),
      problem: "an assertion is a string or a mapping (with one of expr, outcome, status, command, judge)",
    });
  }
  const fields = item as Record<string, unknown>;
  if ("kind" in fields) return checkAssertion(fields);
  const present = KIND_KEYS.filter((key) => fields[key] !== undefined);
  const label = typeof fields.name === "string" && fields.name !== "" ? fields.name : describeItem(item);
  if (present.length !== 1) {
    throw new InvalidAssertionError({
      assertion: label,
      problem:
        present.length === 0
          ? "it has none of the keys expr, outcome, status, command, judge"
          : `it has more than one of the keys expr, outcome, status, command, judge (${present.join(", ")})`,
    });
  }
  const key = present[0] as (typeof KIND_KEYS)[number];
  const { [key]: value, name, ...rest } = fields;
  const defaultName = `${key === "expr" ? "" : `${key}: `}${key === "judge" ? describeJudge(value, rest.role) : describeValue(value)}`;
  const common = { name: name === undefined ? defaultName : name, ...rest };
  switch (key) {
    case "expr":
      return checkAssertion({ kind: "jsonata", ...common, expr: value });
    case "outcome":
      return checkAssertion({ kind: "outcome", ...common, status: value });
    case "status":
      return checkAssertion({ kind: "status", ...common, status: value });
    case "command":
      return checkAssertion({ kind: "command", ...common, command: value });
    case "judge":
      return checkAssertion({ kind: "judge", ...common, ...judgeFields(value, label, rest.role) });
  }
}

/** Refuses two assertions of one name: a report keys each sample's scores by name. Throws InvalidAssertionError. */
export function checkUniqueAssertionNames(assertions: readonly Pick<EvalAssertion, "name">[]): void {
  const seen = new Set<string>();
  for (const { name } of assertions) {
    if (seen.has(name)) {
      throw new InvalidAssertionError({
        assertion: name,
        problem: "two assertions have this name; name them apart (`NAME=…`, `name:`)",
      });
    }
    seen.add(name);
  }
}

/** `{…}` on the command line: YAML flow mapping (JSON is one), then the suite item form. */
function parseFlowMapping(text: string): EvalAssertion {
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 0 });
  } catch (error) {
    const problem = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    throw new InvalidAssertionError({ assertion: text, problem: `not a YAML mapping: ${problem}` });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidAssertionError({ assertion: text, problem: "not a YAML mapping" });
  }
  return normalizeSuiteAssertion(parsed);
}

/** `judge: WORKFLOW#ROLE` (a string), or `judge: { workflow, role, agent, prompt }`. */
function judgeFields(value: unknown, label: string, role: unknown): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return { ...value };
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidAssertionError({
      assertion: label,
      problem: "judge names a workflow (a file or a registered name), optionally with #ROLE",
      field: "judge",
    });
  }
  const hash = value.lastIndexOf("#");
  if (hash === -1) return { workflow: value.trim() };
  const fromHash = value.slice(hash + 1).trim();
  if (role !== undefined && fromHash !== "") {
    throw new InvalidAssertionError({
      assertion: label,
      problem: "the role is given twice (judge: WORKFLOW#ROLE and role:)",
      field: "role",
    });
  }
  return { workflow: value.slice(0, hash).trim(), ...(fromHash === "" ? {} : { role: fromHash }) };
}

/** Checks the stored form, and compiles a JSONata expression. */
function checkAssertion(candidate: Record<string, unknown>): EvalAssertion {
  const label = typeof candidate.name === "string" && candidate.name !== "" ? candidate.name : describeItem(candidate);
  if (candidate.kind === "status" && typeof candidate.status === "string") {
    if (!(THREAD_STATUSES as readonly string[]).includes(candidate.status)) {
      throw new InvalidAssertionError({
        assertion: label,
        problem: `status ${JSON.stringify(candidate.status)} is none of ${THREAD_STATUSES.join(", ")}`,
        field: "status",
      });
    }
  }
  const parsed = evalAssertionSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? null : issue.path.join(".");
    const problem =
      issue?.code === "unrecognized_keys"
        ? `unknown key${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}`
        : (issue?.message ?? "it is not an assertion");
    throw new InvalidAssertionError({ assertion: label, problem, field });
  }
  const assertion = parsed.data;
  if (assertion.kind === "jsonata") {
    const { expression } = compileAssertionExpression(assertion.name, assertion.expr);
    // `status="ended"` names an assertion `status` whose expression is the string "ended": always true.
    if (CONSTANT_NODES.has(expression.ast().type)) {
      throw new InvalidAssertionError({
        assertion: label,
        problem: `the expression ${assertion.expr.trim()} is a constant, so it always passes or always fails; to compare, give a name first (\`ok=status = "ended"\`)`,
      });
    }
  }
  if (assertion.kind === "judge" && assertion.workflow.trim() === "") {
    throw new InvalidAssertionError({ assertion: label, problem: "judge names no workflow", field: "workflow" });
  }
  return assertion;
}

/**
 * Compiles an assertion's JSONata expression; throws InvalidAssertionError naming the position where it
 * fails. What scoring compiles with, too.
 */
export function compileAssertionExpression(name: string, expr: string) {
  try {
    return compileCondition(name, expr).jsonata();
  } catch (error) {
    const { message, position } = describeJsonataError(error);
    throw new InvalidAssertionError({
      assertion: name,
      problem: `the expression does not compile${position === null ? "" : ` at position ${position}`}: ${message}`,
      position,
    });
  }
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(String).join(" ");
  return JSON.stringify(value) ?? String(value);
}

function describeJudge(value: unknown, role: unknown): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const fields = value as { workflow?: unknown; role?: unknown };
    return `${describeValue(fields.workflow)}${fields.role === undefined ? "" : `#${describeValue(fields.role)}`}`;
  }
  return `${describeValue(value)}${typeof role === "string" ? `#${role}` : ""}`;
}

function describeItem(item: unknown): string {
  const text = JSON.stringify(item) ?? String(item);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
