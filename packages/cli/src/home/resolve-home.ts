import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export interface ResolveHomeOptions {
  flag: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** `--home`, else `$UWF_HOME`, else the nearest `.uwf/` above the working directory (like `.git`), else `~/.uwf`. */
export function resolveHome({ flag, env, cwd }: ResolveHomeOptions): string {
  if (flag !== undefined && flag !== "") return resolve(cwd, flag);
  const fromEnv = env.UWF_HOME;
  if (fromEnv !== undefined && fromEnv !== "") return resolve(cwd, fromEnv);
  for (let directory = resolve(cwd); ; directory = dirname(directory)) {
    const candidate = join(directory, ".uwf");
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return candidate;
    if (dirname(directory) === directory) break;
  }
  return join(homedir(), ".uwf");
}
