/** The one printer: one JSON document with `--json`, else the command's human formatting. Data goes to stdout. */
import { writeStdout } from "./standard-streams.ts";

export async function printResult<Result>(
  result: Result,
  json: boolean,
  format: (result: Result) => string,
): Promise<void> {
  const text = json ? JSON.stringify(result) : format(result);
  if (text.length > 0) await writeStdout(text.endsWith("\n") ? text : `${text}\n`);
}
