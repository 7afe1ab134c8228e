export interface ShouldColorOptions {
  /** False for `--no-color`. */
  flag: boolean;
  env: NodeJS.ProcessEnv;
  /** Whether the stream written to is a terminal. */
  terminal: boolean;
}

/**
 * Every colour decision uwf makes, in this order: `--no-color` turns colour off; `FORCE_COLOR` set to
 * `0` or `false` turns it off, and set otherwise (empty, `1`, `2`, `3`, `true`) on, before `NO_COLOR`,
 * as in Node.js; `NO_COLOR` (not empty) turns it off; so does `CI` (a CI log is a file even when the
 * runner gives the process a terminal); otherwise the stream must be a terminal.
 */
export function shouldColor({ flag, env, terminal }: ShouldColorOptions): boolean {
  if (!flag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ["", "1", "2", "3", "true"].includes(force);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI !== "false") return false;
  return terminal;
}
