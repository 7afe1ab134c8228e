/** The system prompt and the user message of the built-in agent. */
export interface SplitPrompt {
  system: string;
  user: string;
  /**
   * False for a prompt without the `# Task` heading (a retry prompt, sent within
   * the conversation): `system` is then the agent's preamble alone, and a
   * continued conversation keeps the system prompt it was started with.
   */
  hasRole: boolean;
}

const TASK_HEADING = "\n# Task\n";

/**
 * Splits uwf's continuation prompt for the Messages API. The engine builds one
 * prompt: output format, the role, then `# Task`, the history and the next
 * step. What comes before `# Task` (the role and its reply format, the same at
 * every visit of the role) is the system prompt, after the agent's own working
 * notes; the task, the history and the edge prompt are the user message. A
 * prompt without that heading is sent whole as the user message.
 */
export function splitPrompt(prompt: string, cwd: string): SplitPrompt {
  const index = prompt.indexOf(TASK_HEADING);
  const preamble = agentPreamble(cwd);
  if (index < 0) return { system: preamble, user: prompt.trim(), hasRole: false };
  const role = prompt.slice(0, index).trim();
  return { system: `${preamble}\n\n${role}`, user: prompt.slice(index + 1).trim(), hasRole: true };
}

function agentPreamble(cwd: string): string {
  return [
    "You are an agent working for uwf, a workflow runner. You act as one role at one step of a thread.",
    `You work in the directory ${cwd}. Use the tools to read, search and change files there and to run commands; paths are relative to it, and nothing outside it can be touched.`,
    "Do the work first, then give your final answer as a message without tool calls. That final message is your reply: it must start with the YAML frontmatter described below.",
  ].join("\n");
}
