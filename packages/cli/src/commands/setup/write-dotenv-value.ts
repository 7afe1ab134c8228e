import { dotenvFilePath, parseDotenv, readDotenvText } from "@uwf/agent-kit";
import { InternalError } from "@uwf/protocol";
import { writeFileAtomically } from "../../home/write-file-atomically.ts";

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
  const index = lines.findIndex((line) => parseDotenv(line).has(name));
  if (index >= 0) lines[index] = entry;
  else {
    while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
    lines.push(entry);
  }
  // Mode 0600: the keys are never readable by others, not even for a moment.
  await writeFileAtomically(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}
