import type { Store } from "@uwf/cas";
import { didYouMean } from "@uwf/protocol";
import {
  describeValue,
  describeYamlError,
  formatYaml,
  loadYaml,
  restoreFieldOrder,
  toJsonValue,
  validateOutputFields,
  yamlToValue,
} from "@uwf/workflow";
import { InvalidAnswerError } from "../errors/invalid-answer-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { readSuspension, type Suspension, suspensionAnswerSchema } from "./read-suspension.ts";

/** What a resume brings as its answer: `-p` text, or `--answer` (YAML or JSON text, or the fields themselves). */
export interface GivenAnswer {
  text?: string;
  typed?: string | Record<string, unknown>;
}

/** An answer a suspended role accepts: its text for the prompt, and for a typed answer its fields. */
export interface CheckedAnswer {
  text: string;
  fields: Record<string, unknown> | null;
}

/**
 * Checks a resume's answer against what the suspended thread's role takes, reading only the thread's
 * record and head (before any lease, agent or write): for a role with `answer:`, `--answer` fields its
 * schema accepts; for one without, `-p` text. Null when the thread waits for no answer (the step says
 * why it cannot resume, as before), unless a typed answer was given: that is refused. Throws InvalidAnswerError.
 */
export async function checkResumeAnswer(
  store: Store,
  threadId: string,
  given: GivenAnswer,
): Promise<CheckedAnswer | null> {
  const record = await store.refs.getThread(threadId);
  if (record === null) throw new ThreadNotFoundError(threadId);
  const suspension = await readSuspension(store, record);
  if (suspension === null) {
    if (given.typed === undefined) return null;
    const what = record.status === "suspended" ? "suspended for its budget (raise a limit instead)" : record.status;
    throw new InvalidAnswerError(
      record.id,
      record.next ?? "(none)",
      null,
      `the thread is ${what}: --answer answers a role's suspension`,
    );
  }
  return checkAnswer(record.id, suspension, given);
}

/** checkResumeAnswer once the suspension is read: pure. */
export function checkAnswer(thread: string, suspension: Suspension, given: GivenAnswer): CheckedAnswer | null {
  const { role } = suspension;
  const declared = suspensionAnswerSchema(suspension);
  const schema = declared === null ? null : restoreFieldOrder(declared);
  const refuse = (field: string | null, problem: string) => new InvalidAnswerError(thread, role, field, problem);
  if (schema === null) {
    if (given.typed !== undefined) {
      const why = suspension.agentTimedOut
        ? `role ${role}'s agent ran out of time, so the thread asks how to go on`
        : `role ${role} declares no answer: schema, so it takes text`;
      throw refuse(null, `${why}: give it with -p TEXT`);
    }
    return given.text === undefined ? null : { text: given.text, fields: null };
  }
  if (given.typed === undefined) {
    const how = given.text === undefined ? "no answer was given" : "-p gives text";
    throw refuse(null, `${how}, but role ${role} declares answer:, so give --answer with ${describeFields(schema)}`);
  }
  if (given.text !== undefined) throw refuse(null, "give the answer once: --answer or -p, not both");
  const fields = exactFields(typeof given.typed === "string" ? parseAnswer(given.typed, refuse) : given.typed, refuse);
  refuseMisspeltFields(fields, schema, refuse);
  const checked = validateOutputFields(fields, schema);
  if (!checked.success) throw refuse(firstField(checked.problem), checked.problem);
  return { text: formatYaml(fields), fields };
}

type Refuse = (field: string | null, problem: string) => InvalidAnswerError;

/**
 * A field the schema does not declare, a slip away from one it declares and that was not given
 * (`aproved` for `approved`), is refused with the name it was probably meant to be, as a misspelt
 * command is — rather than dropped, or reported as the declared field missing.
 */
function refuseMisspeltFields(fields: Record<string, unknown>, schema: Record<string, unknown>, refuse: Refuse): void {
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object") return;
  const declared = Object.keys(properties);
  const notGiven = declared.filter((name) => !Object.hasOwn(fields, name));
  for (const name of Object.keys(fields)) {
    if (declared.includes(name)) continue;
    const suggestion = didYouMean(name, notGiven);
    if (suggestion !== "") throw refuse(name, `unknown field "${name}"${suggestion}`);
  }
}

/** `--answer` text: one YAML (or JSON, which is YAML) mapping. */
function parseAnswer(text: string, refuse: Refuse): Record<string, unknown> {
  const { parseDocument } = loadYaml();
  // Integers arrive exactly (as BigInt), so one beyond 2^53 is refused by exactFields rather than rounded.
  const document = parseDocument(text, { prettyErrors: false, intAsBigInt: true });
  const error = document.errors[0];
  if (error !== undefined) throw refuse(null, `not YAML or JSON: ${describeYamlError(error)}`);
  const converted = yamlToValue(document);
  if (!converted.success) throw refuse(null, converted.problem);
  const value = converted.value;
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Map)
    throw refuse(null, `expected an object of fields (YAML or JSON), got ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

/**
 * The answer's fields as JSON carries them exactly, or refused naming the field: an integer beyond 2^53
 * (which a number would round), an infinity (`1e3000000`), NaN, a lone surrogate (which cannot be stored).
 */
function exactFields(fields: Record<string, unknown>, refuse: Refuse): Record<string, unknown> {
  const exact = toJsonValue(fields);
  if (!exact.success) {
    const field = exact.path === "" ? null : exact.path;
    throw refuse(field, `${field === null ? "" : `field "${field}": `}${exact.problem}`);
  }
  return exact.value as Record<string, unknown>;
}

/** `field "approved": expected boolean…` or `missing required field "approved"` → `approved`. */
function firstField(problem: string): string | null {
  return /field "([^"]*)"/.exec(problem)?.[1] ?? null;
}

/** `approved (boolean, required), comment (string)` for the message that says what to give. */
function describeFields(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object") return "its fields";
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields = Object.entries(properties as Record<string, unknown>).map(([name, field]) => {
    const type = (field as { type?: unknown } | null)?.type;
    const details = [type === undefined ? "any" : String(type), ...(required.has(name) ? ["required"] : [])];
    return `${name} (${details.join(", ")})`;
  });
  return fields.length === 0 ? "its fields" : `its fields: ${fields.join(", ")}`;
}
