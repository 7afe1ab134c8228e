import type { OpenaiAgentSpec } from "@uwf/protocol";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { runToolLoop } from "../tool-loop/run-tool-loop.ts";
import type { ToolLoopOptions } from "../tool-loop/set-up-tool-loop-run.ts";
import { OPENAI_API } from "./openai-provider.ts";

export interface RunOpenaiAgentOptions extends ToolLoopOptions {
  spec: OpenaiAgentSpec;
}

/**
 * The built-in `openai` agent: the shared tool loop (`runToolLoop`) on an OpenAI-compatible Chat
 * Completions API — OpenAI, a gateway, OpenRouter, or a local vLLM, llama.cpp or Ollama server at the
 * agent's or its provider's `baseUrl` — with the same tools, confinement, deadlines, retries, usage and
 * conversation rules as the `anthropic` agent.
 */
export function runOpenaiAgent(options: RunOpenaiAgentOptions): Promise<AgentLaunchResult> {
  return runToolLoop(options, OPENAI_API);
}
