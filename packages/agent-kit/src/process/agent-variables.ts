import type { AgentEnvironment } from "./agent-launch-result.ts";

/**
 * The `UWF_*` environment variables every launched program gets; `UWF_USAGE_FILE` for the programs
 * whose usage uwf reads from there (command and shell agents).
 */
export function buildAgentVariables(
  environment: AgentEnvironment,
  promptFile: string,
  usageFile?: string,
): Record<string, string> {
  return {
    UWF_THREAD: environment.thread,
    UWF_ROLE: environment.role,
    UWF_STEP: String(environment.step),
    UWF_HOME: environment.home,
    UWF_PROMPT_FILE: promptFile,
    ...(usageFile === undefined ? {} : { UWF_USAGE_FILE: usageFile }),
  };
}

/**
 * Replaces `{thread}`, `{role}`, `{step}`, `{home}` and `{promptFile}` in each
 * argument. Other braces are left alone.
 */
export function substituteAgentArgs(
  args: readonly string[],
  environment: AgentEnvironment,
  promptFile: string,
): string[] {
  const values: Record<string, string> = {
    thread: environment.thread,
    role: environment.role,
    step: String(environment.step),
    home: environment.home,
    promptFile,
  };
  return args.map((arg) =>
    arg.replace(/\{(\w+)\}/g, (match, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? match) : match)),
  );
}
