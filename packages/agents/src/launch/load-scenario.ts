import type { SafeResult } from "@uwf/protocol";
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
}

export interface Scenario {
  file: string;
  steps: ScenarioStep[];
}

/**
 * Reads and checks a scenario file `{ steps: [ { role, output?, body?, reply? } ] }`, YAML or (for a
 * `.json` file) JSON: the scripted agent reads its whole scenario on every step, and JSON parses about
 * fifteen times faster, which matters for long generated scenarios. Problems name the file and the entry.
 */
export async function safeLoadScenario(file: string): Promise<SafeResult<Scenario, InvalidScenarioError>> {
  const checked = checkScenario(file);
  return checked.success ? checked : { success: false, error: new InvalidScenarioError(file, checked.error) };
}

/** A check's result; the problem is a message naming the file. */
type Checked<Value> = { success: true; value: Value } | { success: false; error: string };

function checkScenario(file: string): Checked<Scenario> {
  // Synchronous: the step waits for it anyway, and the first promise-based read of a process costs more.
  const read = safeReadBoundedFile(file, { maxBytes: MAX_INPUT_FILE_BYTES, allowPipe: true });
  if (!read.success) return { success: false, error: `cannot read scenario ${file}: ${read.problem}` };
  const text = read.value;
  const parsedText = file.endsWith(".json") ? parseJson(file, text) : parseYaml(file, text);
  if (!parsedText.success) return parsedText;
  const value = parsedText.value;
  const steps = isRecord(value) ? value.steps : undefined;
  if (!Array.isArray(steps)) return { success: false, error: `scenario ${file} needs a "steps" list` };
  const parsed: ScenarioStep[] = [];
  // An indexed loop: the agent checks its whole scenario on every step, in code that runs cold.
  for (let index = 0; index < steps.length; index++) {
    const entry: unknown = steps[index];
    const where = () => `scenario ${file}, steps[${index}]`;
    if (!isRecord(entry) || typeof entry.role !== "string" || entry.role === "") {
      return { success: false, error: `${where()} needs a "role" name` };
    }
    const output = entry.output ?? {};
    if (!isRecord(output)) return { success: false, error: `${where()}: "output" must be a mapping of fields` };
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
    parsed.push({ role: entry.role, output, body, reply: reply as ScenarioStep["reply"], branch });
  }
  return { success: true, value: { file, steps: parsed } };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
