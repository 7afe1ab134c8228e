/** The one printer: one JSON document with `--json`, else the command's human formatting. Data goes to stdout. */
export function printResult<Result>(result: Result, json: boolean, format: (result: Result) => string): void {
  const text = json ? JSON.stringify(result) : format(result);
  if (text.length > 0) process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}
