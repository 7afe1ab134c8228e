import { isAbsolute, resolve } from "node:path";

/**
 * `--agent scripted:FILE` names a scenario relative to where the command runs;
 * make it absolute so later steps (and other directories) find the same file.
 */
export function resolveAgentFlag(flag: string | undefined, cwd: string): string | undefined {
  if (flag === undefined || !flag.startsWith("scripted:")) return flag;
  const file = flag.slice("scripted:".length);
  return `scripted:${isAbsolute(file) ? file : resolve(cwd, file)}`;
}
