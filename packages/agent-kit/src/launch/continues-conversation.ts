import type { AgentSpec } from "@uwf/protocol";

/**
 * Whether an agent of this kind continues its own conversation on the role's later visit: the
 * built-in `anthropic` and `openai` agents continue their stored transcript, Claude Code resumes its session.
 * Only such an agent may be sent the short prompt (its last visit and the steps since), and only
 * when it really continues (`AgentLaunchResult.continued`); every other kind — command agents,
 * `shell`, `scripted` — gets the whole thread at every visit (DESIGN §5, sight).
 */
export function continuesConversation(spec: AgentSpec): boolean {
  if ("builtin" in spec) return spec.builtin === "anthropic" || spec.builtin === "openai";
  return "preset" in spec && spec.preset === "claude-code";
}
