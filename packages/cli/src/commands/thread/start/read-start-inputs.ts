import { resolve } from "node:path";
import { isObjectPrototypeName, messageOf } from "@uwf/protocol";
import { describeYamlError, MAX_INPUT_FILE_BYTES, safeReadBoundedFile, toJsonValue, yamlToValue } from "@uwf/workflow";
import { LineCounter, parseDocument } from "yaml";
import { UsageError } from "../../../errors/usage-error.ts";
import { readStdin } from "../../../read-input-file.ts";

export interface ReadStartInputsOptions {
  /** `--input KEY=VALUE`, repeatable; each value is read as YAML (`pr=42` is a number). */
  input?: string[];
  /** `--inputs FILE`: a YAML or JSON map; `-` reads it from stdin. */
  inputs?: string;
  cwd: string;
}

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * `__proto__` and the like pass the pattern, but as a key they would set the map's prototype
 * instead of an input (or find the object's machinery), so they are refused by name.
 */
function checkNotPrototypeName(name: string, where: string): void {
  if (isObjectPrototypeName(name)) {
    throw new UsageError(
      `${where}: "${name}" is a name every JavaScript object already has, so it cannot name an input`,
    );
  }
}

/**
 * The start inputs of `uwf start` / `uwf run`: the `--inputs` file's map, then each `--input`
 * (which wins over the file for its key). Undefined when neither flag is given. A malformed
 * pair, file or value is a usage error naming it.
 */
export async function readStartInputs(options: ReadStartInputsOptions): Promise<Record<string, unknown> | undefined> {
  if (options.inputs === undefined && (options.input ?? []).length === 0) return undefined;
  const inputs: Record<string, unknown> =
    options.inputs === undefined ? {} : await readInputsFile(options.inputs, options.cwd);
  for (const pair of options.input ?? []) {
    const equals = pair.indexOf("=");
    const name = equals < 0 ? pair : pair.slice(0, equals);
    if (equals < 0 || !INPUT_NAME.test(name)) {
      throw new UsageError(
        `--input ${JSON.stringify(pair)}: expected KEY=VALUE with KEY a name of letters, digits, '_' and '-'`,
      );
    }
    checkNotPrototypeName(name, `--input ${JSON.stringify(pair)}`);
    const text = pair.slice(equals + 1);
    inputs[name] = text === "" ? "" : parseYamlValue(text, `--input ${name}`);
  }
  return inputs;
}

async function readInputsFile(file: string, cwd: string): Promise<Record<string, unknown>> {
  const where = file === "-" ? "--inputs - (stdin)" : `--inputs ${file}`;
  // Checked and bounded first: `--inputs /dev/zero` grew until the machine ran out of memory.
  const read =
    file === "-"
      ? await readStdin()
      : safeReadBoundedFile(resolve(cwd, file), { maxBytes: MAX_INPUT_FILE_BYTES, allowPipe: true });
  if (!read.success) throw new UsageError(`${where}: ${read.problem}`);
  const value = parseYamlValue(read.value, where);
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(
      `${where}: expected a map of input names to values, got ${Array.isArray(value) ? "a list" : typeof value}`,
    );
  }
  for (const name of Object.keys(value)) {
    if (!INPUT_NAME.test(name))
      throw new UsageError(
        `${where}: input name ${JSON.stringify(name)} is not a name of letters, digits, '_' and '-'`,
      );
    checkNotPrototypeName(name, where);
  }
  return { ...(value as Record<string, unknown>) };
}

/** YAML as the user typed it, with the same limits as a reply: nesting, aliases; JSON values only. */
function parseYamlValue(text: string, where: string): unknown {
  const lineCounter = new LineCounter();
  // Integers arrive exactly (as BigInt), so one beyond what JSON carries is refused, not rounded.
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter, intAsBigInt: true });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = lineCounter.linePos(error.pos[0]).line;
    throw new UsageError(`${where}: not valid YAML (line ${line}): ${describeYamlError(error)}`);
  }
  const converted = yamlToValue(document);
  if (!converted.success) {
    const line = converted.offset === null ? "" : ` (line ${lineCounter.linePos(converted.offset).line})`;
    throw new UsageError(`${where}: refused${line}: ${converted.problem}`);
  }
  const json = toJsonValue(converted.value ?? null);
  if (!json.success) throw new UsageError(`${where}: ${json.path === "" ? "" : `${json.path}: `}${json.problem}`);
  try {
    return JSON.parse(JSON.stringify(json.value));
  } catch (cause) {
    throw new UsageError(`${where}: ${messageOf(cause)}`);
  }
}
