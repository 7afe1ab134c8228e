import type { TempHome, UwfRun } from "./temp-home.ts";

/**
 * `uwf ARGS` in the home, which must exit with `exitCodes` (one, or any of several; 0 by default): the
 * run, or an error naming the command, the exit code it gave and its stderr.
 */
export async function uwfExiting(
  home: TempHome,
  args: readonly string[],
  exitCodes: number | readonly number[] = 0,
): Promise<UwfRun> {
  const run = await home.uwf([...args]);
  const expected = typeof exitCodes === "number" ? [exitCodes] : exitCodes;
  if (!expected.includes(run.exitCode)) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run;
}
