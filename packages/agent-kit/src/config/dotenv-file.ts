import { join } from "node:path";
import { InternalError, messageOf } from "@uwf/protocol";
import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { DotenvUnreadableError } from "../errors/dotenv-unreadable-error.ts";
import { writeFileAtomically } from "./write-file-atomically.ts";

/** `.env` in the uwf home: API keys given to `uwf setup --api-key`, readable only by the user. */
export const DOTENV_FILE_NAME = ".env";

export function dotenvFilePath(home: string): string {
  return join(home, DOTENV_FILE_NAME);
}

/** The value of `name` in the home's `.env`, or undefined when the file or the entry is missing. */
export async function readDotenvValue(home: string, name: string): Promise<string | undefined> {
  const text = await readDotenvText(dotenvFilePath(home));
  return text === undefined ? undefined : parseDotenv(text).get(name);
}

/**
 * The file's text, or undefined when it does not exist. Any other failure (no permission, a
 * folder in its place) is an error naming the file: taken for "no file", it would let the next
 * write replace the user's `.env`.
 */
async function readDotenvText(file: string): Promise<string | undefined> {
  const read = safeReadBoundedFile(file, { maxBytes: MAX_CONFIG_BYTES });
  if (read.success) return read.value;
  if (read.reason === "missing") return undefined;
  const cause = read.reason === "unreadable" ? read.cause : undefined;
  throw new DotenvUnreadableError(file, cause === undefined ? read.problem : messageOf(cause), cause);
}

/**
 * Sets `name=value` in the home's `.env`, keeping its other lines, and makes the
 * file readable and writable by the user only (mode 0600).
 */
export async function writeDotenvValue(home: string, name: string, value: string): Promise<string> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new InternalError(`"${name}" is not a valid environment variable name`);
  if (/[\r\n]/.test(value)) throw new InternalError(`the value of ${name} must be a single line`);
  const file = dotenvFilePath(home);
  const lines = (await readDotenvText(file))?.split("\n") ?? [];
  const entry = `${name}=${JSON.stringify(value)}`;
  const index = lines.findIndex((line) => parseLine(line)?.[0] === name);
  if (index >= 0) lines[index] = entry;
  else {
    while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
    lines.push(entry);
  }
  // Mode 0600: the keys are never readable by others, not even for a moment.
  await writeFileAtomically(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}

/** `NAME=value` lines; `export ` prefixes, `#` comments and single or double quotes are understood. */
export function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const entry = parseLine(line);
    if (entry !== null) values.set(entry[0], entry[1]);
  }
  return values;
}

function parseLine(line: string): [string, string] | null {
  const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
  if (match === null) return null;
  const name = match[1] ?? "";
  let value = match[2] ?? "";
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      value = JSON.parse(value) as string;
    } catch {
      value = value.slice(1, -1);
    }
  } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
    value = value.slice(1, -1);
  } else {
    value = value.replace(/\s+#.*$/, "");
  }
  return [name, value];
}
