import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { InitResult } from "@uwf/protocol";
import type { CommandContext } from "../pipeline/command-context.ts";

/** `uwf init`: a project home in `./.uwf`, found by every uwf command run below this directory. */
export async function initCommand(context: CommandContext) {
  const home = join(context.cwd, ".uwf");
  const created = !existsSync(home);
  mkdirSync(join(home, "workflows"), { recursive: true });
  const result: InitResult = { home, created };
  return {
    result,
    format: (value: InitResult) =>
      value.created ? `Initialised uwf home in ${value.home}` : `uwf home ${value.home} already exists`,
  };
}
