import { findLoneSurrogate, type JsonSchemaObject, type SafeResult, TIMEOUT } from "@uwf/protocol";
import {
  ASK_KEYWORD,
  allBranchProperties,
  branchAnswers,
  describeValue,
  describeYamlError,
  listStatusBranches,
  loadYaml,
  parseSimpleYamlMapping,
  REASON_FIELD,
  STATUS_FIELD,
  SUSPEND_STATUS,
  toJsonValue,
  validateOutputFields,
  withStatusFields,
  yamlToValue,
} from "@uwf/workflow";
import { InvalidReplyError } from "../errors/invalid-reply-error.ts";
import { splitFrontmatter } from "./split-frontmatter.ts";

/** An agent reply taken apart: its validated fields and its markdown body. */
export interface ExtractedFrontmatter {
  fields: Record<string, unknown>;
  body: string;
}

/**
 * Reads the YAML frontmatter at the start of an agent reply and validates it; throws
 * `InvalidReplyError` (which keeps the reply, and the problem to send back to the agent) for a
 * bad reply. `safeExtractFrontmatter` returns that error instead.
 *
 * Only the fields the schema declares are kept (its `properties` and those of its
 * per-status branches, see listStatusBranches), plus `$status` and `reason`, which
 * every role may report. The fields are validated against the whole schema.
 * `$status: $SUSPEND` needs a string `reason` and lifts every `required` (a role
 * that stops has nothing to report yet); the declared fields' types still hold. A reply without frontmatter is accepted as a plain body only when the
 * schema declares no fields at all.
 */
export function extractFrontmatter(reply: string, schema: JsonSchemaObject | undefined): ExtractedFrontmatter {
  const result = safeExtractFrontmatter(reply, schema);
  if (!result.success) throw result.error;
  return result.value;
}

/** `extractFrontmatter`, returning the `InvalidReplyError` for a bad reply instead of throwing it. */
export function safeExtractFrontmatter(
  reply: string,
  schema: JsonSchemaObject | undefined,
): SafeResult<ExtractedFrontmatter, InvalidReplyError> {
  const checked = checkReply(reply, schema);
  if (!checked.success) return { success: false, error: new InvalidReplyError(checked.problem, reply) };
  return { success: true, value: { fields: checked.fields, body: checked.body } };
}

/** The problem is a sentence for the agent, so the checks below pass it on as text. */
type ReplyCheck = ({ success: true } & ExtractedFrontmatter) | { success: false; problem: string };

function checkReply(reply: string, schema: JsonSchemaObject | undefined): ReplyCheck {
  const lone = findLoneSurrogate(reply);
  if (lone !== -1) return { success: false, problem: describeLoneSurrogateInReply(reply, lone) };
  const roleSchema = schema ?? { type: "object" };
  const replySchema = withStatusFields(roleSchema);
  const split = splitFrontmatter(reply);
  if (!split.success) {
    if (reportsNothing(roleSchema) && !reply.trimStart().startsWith("---")) {
      return {
        success: true,
        fields: {},
        body: reply
          .replace(/^\uFEFF/, "")
          .replace(/\r\n?/g, "\n")
          .trim(),
      };
    }
    return split;
  }

  const parsed = parseFields(split.yaml, split.firstLine);
  if (!parsed.success) return parsed;
  const branches = listStatusBranches(replySchema);
  const ask = askSchemaOf(roleSchema, parsed.fields);
  // A role that asks (`ask:`) suspends with the fields of its question, not of its reply.
  const properties = ask === null ? allBranchProperties(branches) : ask.properties;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.fields)) if (Object.hasOwn(properties, name)) fields[name] = value;

  const unsafe = findNonJsonValue(fields, []);
  if (unsafe !== null) return { success: false, problem: unsafe };
  // What is left to refuse is an integer too large for a JSON number; the others become numbers again.
  const exact = toJsonValue(fields);
  if (!exact.success) return { success: false, problem: `field "${exact.path}": ${exact.problem}` };
  Object.assign(fields, exact.value);

  // uwf records `$timeout` itself, when a suspension's wait runs out: a reply that sends it would take the `$timeout` edges.
  if (fields[STATUS_FIELD] === TIMEOUT) {
    return {
      success: false,
      problem: `"${STATUS_FIELD}: ${TIMEOUT}" is recorded by uwf when nobody answers a suspension in time; a reply cannot send it`,
    };
  }
  let checkedSchema = replySchema;
  if (fields[STATUS_FIELD] === SUSPEND_STATUS) {
    const reason = fields[REASON_FIELD];
    if (typeof reason !== "string" || reason.trim() === "") {
      return {
        success: false,
        problem: `"${STATUS_FIELD}: ${SUSPEND_STATUS}" needs a "${REASON_FIELD}" field: a string saying why you stop and what you need, got ${describeValue(reason)}`,
      };
    }
    checkedSchema =
      ask === null ? { type: "object", properties: { ...properties, [STATUS_FIELD]: { type: "string" } } } : ask.schema;
  }
  const validation = validateOutputFields(fields, checkedSchema);
  if (!validation.success) {
    if (ask !== null)
      return { success: false, problem: `${validation.problem} (with ${STATUS_FIELD}: ${SUSPEND_STATUS})` };
    return branches.length > 1
      ? { success: false, problem: describeBranchProblem(fields, branches, validation.problem) }
      : validation;
  }
  return { success: true, fields, body: split.body };
}

/**
 * The schema a suspending reply of a role with `ask:` is held to: the ask, with `$status` and `reason`
 * (its `required` kept: they are what the question needs); null for any other reply or role.
 */
function askSchemaOf(
  roleSchema: JsonSchemaObject,
  parsed: Record<string, unknown>,
): { schema: JsonSchemaObject; properties: Record<string, unknown> } | null {
  const ask = roleSchema[ASK_KEYWORD];
  if (parsed[STATUS_FIELD] !== SUSPEND_STATUS || ask === null || typeof ask !== "object" || Array.isArray(ask))
    return null;
  const schema = withStatusFields(ask as JsonSchemaObject);
  const properties = schema.properties as Record<string, unknown>;
  return { schema: { ...schema, properties: { ...properties, [STATUS_FIELD]: { type: "string" } } }, properties };
}

/**
 * A reply that fails a schema with per-status branches fails every branch; the validator's
 * message names them all. The agent needs the problem with the branch its `$status` chose,
 * or, when no branch answers its `$status`, the statuses that have one.
 */
function describeBranchProblem(
  fields: Record<string, unknown>,
  branches: ReturnType<typeof listStatusBranches>,
  wholeProblem: string,
): string {
  const status = fields[STATUS_FIELD];
  const pinned = branches.every((branch) => branch.statuses !== null);
  if (pinned && (typeof status !== "string" || !branches.some((branch) => branchAnswers(branch, status)))) {
    const values = [...new Set(branches.flatMap((branch) => branch.statuses ?? []))];
    const expected = values.map((value) => JSON.stringify(value)).join(", ");
    return status === undefined
      ? `missing required field "${STATUS_FIELD}" (one of ${expected})`
      : `field "${STATUS_FIELD}": expected one of ${expected}, got ${describeValue(status)}`;
  }
  const chosen = typeof status === "string" ? branches.filter((branch) => branchAnswers(branch, status)) : branches;
  for (const branch of chosen) {
    const flat = { type: "object", properties: branch.properties, required: branch.required };
    const result = validateOutputFields(fields, flat);
    if (!result.success) {
      const when = typeof status === "string" ? ` (with ${STATUS_FIELD}: ${status})` : "";
      return `${result.problem}${when}`;
    }
  }
  return wholeProblem;
}

type ParseFieldsResult = { success: true; fields: Record<string, unknown> } | { success: false; problem: string };

function parseFields(yaml: string, firstLine: number): ParseFieldsResult {
  const simple = parseSimpleYamlMapping(yaml);
  if (simple !== undefined) return { success: true, fields: simple };
  const { LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  // Integers are parsed exactly (as BigInt), so one beyond 2^53 is refused below rather than rounded.
  const document = parseDocument(yaml, { prettyErrors: true, lineCounter, intAsBigInt: true });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = (error.linePos?.[0].line ?? 1) + firstLine - 1;
    return {
      success: false,
      problem: `the frontmatter is not valid YAML (line ${line} of the reply): ${describeYamlError(error)}`,
    };
  }
  // A reply over a limit is an invalid reply like any other: the agent is asked again, its text is kept.
  const converted = yamlToValue(document);
  if (!converted.success) {
    const where =
      converted.offset === null
        ? ""
        : ` (line ${lineCounter.linePos(converted.offset).line + firstLine - 1} of the reply)`;
    return { success: false, problem: `the frontmatter is refused${where}: ${converted.problem}` };
  }
  const value = converted.value;
  if (value === null || value === undefined) return { success: true, fields: {} };
  if (typeof value !== "object" || Array.isArray(value) || value instanceof Map) {
    return {
      success: false,
      problem: `the frontmatter must be YAML "field: value" lines, got ${describeValue(value)}`,
    };
  }
  return { success: true, fields: value as Record<string, unknown> };
}

/** A role that declares no fields may answer in plain markdown. */
function reportsNothing(schema: JsonSchemaObject): boolean {
  return listStatusBranches(schema).every(
    (branch) => Object.keys(branch.properties).length === 0 && branch.required.length === 0,
  );
}

/** Fields are stored as JSON: `.inf`, `.nan`, dates, binaries and lone surrogates have no JSON form. */
function findNonJsonValue(value: unknown, path: string[]): string | null {
  const field = path.join(".");
  if (typeof value === "bigint") return null; // An exact integer: toJsonValue checks its size.
  if (typeof value === "string") {
    const lone = findLoneSurrogate(value);
    return lone === -1 ? null : `field ${JSON.stringify(field)} holds ${describeLoneSurrogate(value, lone)}`;
  }
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "number") {
    return Number.isFinite(value) ? null : `field "${field}": expected a finite number, got ${String(value)}`;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = findNonJsonValue(item, [...path.slice(0, -1), `${path.at(-1) ?? ""}[${index}]`]);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const lone = findLoneSurrogate(key);
      if (lone !== -1) {
        return `field ${JSON.stringify([...path, key].join("."))} has a name that holds ${describeLoneSurrogate(key, lone)}`;
      }
      const problem = findNonJsonValue(item, [...path, key]);
      if (problem !== null) return problem;
    }
    return null;
  }
  return `field "${field}": expected a JSON value (text, number, boolean, list or mapping), got ${describeValue(value)}`;
}

/**
 * A lone surrogate in a field, for the agent, escaped (the problem is stored and sent back, so it
 * must not hold one itself): `\ud800`, what it is, and how to do without it.
 */
function describeLoneSurrogate(text: string, index: number): string {
  const escaped = escapeCodeUnit(text, index);
  return `${escaped}, half of a UTF-16 surrogate pair without its other half, which JSON cannot carry (the YAML escape "${escaped}" makes one): write the character itself, or leave it out`;
}

/** A lone surrogate in the reply's own text, where only a program that writes UTF-16 can have put it. */
function describeLoneSurrogateInReply(reply: string, index: number): string {
  const before = reply.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  return `the reply holds ${escapeCodeUnit(reply, index)} at line ${line}, column ${column}: half of a UTF-16 surrogate pair without its other half, which JSON and UTF-8 cannot carry; write the character itself, or leave it out`;
}

function escapeCodeUnit(text: string, index: number): string {
  return `\\u${text.charCodeAt(index).toString(16).padStart(4, "0")}`;
}
