import type { Usage } from "@uwf/protocol";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import type { AgentTool, ToolContext } from "../tools/agent-tool.ts";
import type { CallWithApiRetriesOptions } from "./call-with-api-retries.ts";
import type { ModelProvider } from "./model-provider.ts";
import type { ModelSettings } from "./resolve-model-settings.ts";
import type { TranscriptMessage } from "./transcript.ts";

/** One run of a built-in agent's tool loop, as its phases share it: what was set up, and the conversation so far. */
export interface ToolLoopRun {
  settings: ModelSettings;
  /** The model API, behind its adapter. */
  provider: ModelProvider;
  /** The run's tools: the built-in ones and its MCP servers' (see `openRunTools`). */
  agentTools: readonly AgentTool[];
  toolContext: ToolContext;
  /** Aborted on the run's timeout or the caller's interrupt. */
  signal: AbortSignal;
  maxRetries: number;
  /** A line for the log (the result's `stderrTail`) and for `onStderr`. */
  note: (line: string) => void;
  /** The model's text of a turn, for `onStdout` (a step's live output); not logged. */
  say: (text: string) => void;
  /** Logs a retry of the request named `what`. */
  onRetry: (what: string) => NonNullable<CallWithApiRetriesOptions["onRetry"]>;
  /** The result's fields when the run was interrupted or timed out, else null. */
  stopped: () => Partial<AgentLaunchResult> | null;
  /** Clears the run's timer and stops what its tools started (MCP servers). */
  dispose: () => Promise<void>;
  /** The conversation so far, stored with the run. */
  transcript: TranscriptMessage[];
  usage: Usage | null;
  /** Text of turns cut off at max_tokens, which the following turns continue. */
  cutOff: string;
}
