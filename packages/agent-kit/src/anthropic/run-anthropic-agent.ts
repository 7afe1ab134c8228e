import type { AnthropicAgentSpec } from "@uwf/protocol";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { runToolLoop } from "../tool-loop/run-tool-loop.ts";
import type { ToolLoopOptions } from "../tool-loop/set-up-tool-loop-run.ts";
import { ANTHROPIC_API } from "./anthropic-provider.ts";

/** `timeoutMs` covers the whole loop (every request and tool call); `onStderr` gets a progress line per model turn and tool call. */
export interface RunAnthropicAgentOptions extends ToolLoopOptions {
  spec: AnthropicAgentSpec;
}

/**
 * The built-in `anthropic` agent: the shared tool loop (`runToolLoop`) on the Messages API, whose
 * system prompt, tools and stored conversation are cached between requests (cache breakpoints), and
 * whose `count_tokens` measures a stored conversation before it is continued.
 */
export function runAnthropicAgent(options: RunAnthropicAgentOptions): Promise<AgentLaunchResult> {
  return runToolLoop(options, ANTHROPIC_API);
}
