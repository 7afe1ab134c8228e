import { isObject, type SafeResult } from "@uwf/protocol";
import { describeYamlError, loadYaml, MAX_INPUT_FILE_BYTES, safeReadBoundedFile, yamlToValue } from "@uwf/workflow";
import { InvalidScenarioError } from "../errors/invalid-scenario-error.ts";

/** One scripted step: the role the moderator must have chosen, and what the agent replies. */
export interface ScenarioStep {
  role: string;
  output: Record<string, unknown>;
  body: string;
  /** A raw reply used instead of `output` + `body` (to test invalid replies); a list gives one per attempt. */
  reply: string | string[] | null;
  /**
   * Set on an entry a branch plays (its key, or `*` for any branch without entries of its own): such
   * entries are apart from the main sequence, played in order by that branch's own steps. Null otherwise.
   */
  branch: string | null;
  /**
   * On the entry of a step that a person's answer led to: the answer `uwf run` resumes the thread with
   * before playing it — to the suspension before it (text, as `resume -p` gives; fields, as `resume
   * --answer` gives), or the prompt that continued an ended thread. Null when the run should stop there.
   */
  answer: string | Record<string, unknown> | null;
}

export interface Scenario {
  file: string;
  /** The thread the scenario was recorded from (`thread:`), when it names one. */
  thread: string | null;
  steps: ScenarioStep[];
}

/** A scenario as `--agent scripted:` names it: a file, and after `#` the thread to play from a file of several. */
export interface ScenarioReference {
  file: string;
  thread: string | null;
}

const THREAD_SUFFIX = /#([0-9A-HJKMNP-TV-Z]{26})$/i;

/** Splits `FILE#THREAD` (THREAD a 26-character thread id); anything else is all file name. */
export function parseScenarioReference(reference: string): ScenarioReference {
  const match = THREAD_SUFFIX.exec(reference);
  if (match === null) return { file: reference, thread: null };
  return { file: reference.slice(0, match.index), thread: (match[1] as string).toUpperCase() };
}

export interface LoadScenarioOptions {
  /** The thread to play from a file that holds several (`threads:`); a file of one thread needs none. */
  thread?: string | null;
}

/**
 * Reads and checks a scenario file, YAML or (for a `.json` file) JSON: the scripted agent reads its
 * whole scenario on every step, and JSON parses about fifteen times faster, which matters for long
 * generated scenarios. A file holds one thread's `{ steps: [ { role, output?, body?, reply?, branch?,
 * answer? } ] }` (other top-level fields, such as `uwf scenario export`'s `thread`, `workflow`,
 * `prompt` and `inputs`, are read by people, not here), or several as `{ threads: [ { thread, steps } ] }`,
 * of which `options.thread` picks one. Problems name the file and the entry.
 */
export async function safeLoadScenario(
  file: string,
  options: LoadScenarioOptions = {},
): Promise<SafeResult<Scenario, InvalidScenarioError>> {
  const checked = checkScenario(file, options.thread ?? null);
  return checked.success ? checked : { success: false, error: new InvalidScenarioError(file, checked.error) };
}

/** A check's result; the problem is a message naming the file. */
type Checked<Value> = { success: true; value: Value } | { success: false; error: string };

function checkScenario(file: string, thread: string | null): Checked<Scenario> {
  // Synchronous: the step waits for it anyway, and the first promise-based read of a process costs more.
  const read = safeReadBoundedFile(file, { maxBytes: MAX_INPUT_FILE_BYTES, allowPipe: true });
  if (!read.success) return { success: false, error: `cannot read scenario ${file}: ${read.problem}` };
  const text = read.value;
  const parsedText = file.endsWith(".json") ? parseJson(file, text) : parseYaml(file, text);
  if (!parsedText.success) return parsedText;
  const picked = pickThread(file, parsedText.value, thread);
  if (!picked.success) return picked;
  const { steps, where: within, thread: recorded } = picked.value;
  if (!Array.isArray(steps)) return { success: false, error: `scenario ${file}${within} needs a "steps" list` };
  const parsed: ScenarioStep[] = [];
  // An indexed loop: the agent checks its whole scenario on every step, in code that runs cold.
  for (let index = 0; index < steps.length; index++) {
    const entry: unknown = steps[index];
    const where = () => `scenario ${file}${within}, steps[${index}]`;
    if (!isObject(entry) || typeof entry.role !== "string" || entry.role === "") {
      return { success: false, error: `${where()} needs a "role" name` };
    }
    const output = entry.output ?? {};
    if (!isObject(output)) return { success: false, error: `${where()}: "output" must be a mapping of fields` };
    const body = entry.body ?? "";
    if (typeof body !== "string") return { success: false, error: `${where()}: "body" must be text` };
    const reply = entry.reply ?? null;
    const validReply =
      reply === null ||
      typeof reply === "string" ||
      (Array.isArray(reply) && reply.length > 0 && reply.every((item) => typeof item === "string"));
    if (!validReply) return { success: false, error: `${where()}: "reply" must be text or a list of texts` };
    const branch = entry.branch ?? null;
    if (branch !== null && (typeof branch !== "string" || branch === "")) {
      return { success: false, error: `${where()}: "branch" must be a branch key, or "*"` };
    }
    const answer = entry.answer ?? null;
    if (answer !== null && typeof answer !== "string" && !isObject(answer)) {
      return { success: false, error: `${where()}: "answer" must be text, or a mapping of an answer's fields` };
    }
    parsed.push({ role: entry.role, output, body, reply: reply as ScenarioStep["reply"], branch, answer });
  }
  return { success: true, value: { file, thread: recorded, steps: parsed } };
}

/**
 * The steps to play: a one-thread file's own, or from a file of `threads:` the asked thread's (or its
 * only one's). `where` names the entry in messages; `thread` is the thread the steps were recorded from.
 */
function pickThread(
  file: string,
  value: unknown,
  asked: string | null,
): Checked<{ steps: unknown; where: string; thread: string | null }> {
  if (!isObject(value)) return { success: false, error: `scenario ${file} needs a "steps" list` };
  const recorded = typeof value.thread === "string" ? value.thread : null;
  if (!Array.isArray(value.threads)) {
    if (asked !== null && recorded !== null && recorded.toUpperCase() !== asked) {
      return { success: false, error: `scenario ${file} holds thread ${recorded}, not ${asked}` };
    }
    return { success: true, value: { steps: value.steps, where: "", thread: recorded } };
  }
  const threads: unknown[] = value.threads;
  const names = threads.map((entry) => (isObject(entry) && typeof entry.thread === "string" ? entry.thread : null));
  const listed = names.filter((name) => name !== null).join(", ");
  let index: number;
  if (asked === null) {
    if (threads.length !== 1) {
      return {
        success: false,
        error: `scenario ${file} holds ${threads.length} threads: pick one with scripted:${file}#THREAD (${listed || "none is named"})`,
      };
    }
    index = 0;
  } else {
    index = names.findIndex((name) => name?.toUpperCase() === asked);
    if (index === -1) {
      return {
        success: false,
        error: `scenario ${file} has no thread ${asked} (it holds ${listed || "none by name"})`,
      };
    }
  }
  const entry = threads[index];
  if (!isObject(entry)) return { success: false, error: `scenario ${file}, threads[${index}] must be a mapping` };
  return { success: true, value: { steps: entry.steps, where: `, threads[${index}]`, thread: names[index] ?? null } };
}

function parseJson(file: string, text: string): Checked<unknown> {
  try {
    return { success: true, value: JSON.parse(text) };
  } catch (error) {
    return { success: false, error: `scenario ${file} is not valid JSON: ${(error as Error).message}` };
  }
}

function parseYaml(file: string, text: string): Checked<unknown> {
  const document = loadYaml().parseDocument(text);
  const yamlError = document.errors[0];
  if (yamlError !== undefined) {
    return { success: false, error: `scenario ${file} is not valid YAML: ${describeYamlError(yamlError)}` };
  }
  const converted = yamlToValue(document);
  if (!converted.success) return { success: false, error: `scenario ${file} is refused: ${converted.problem}` };
  return { success: true, value: converted.value };
}
