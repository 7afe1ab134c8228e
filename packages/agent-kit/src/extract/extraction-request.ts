import type { Usage } from "@uwf/protocol";
import type { ModelSettings } from "../tool-loop/resolve-model-settings.ts";

/** One forced tool call for LLM extraction (see `extractWithModel`), whatever the model's API. */
export interface ExtractionRequest {
  apiKey: string;
  settings: ModelSettings;
  maxTokens: number;
  system: string;
  user: string;
  toolName: string;
  toolDescription: string;
  /** The role's reply schema, wire-safe (`toWireSchema`). */
  inputSchema: { type: "object" };
  maxRetries: number;
  signal?: AbortSignal;
}

/** The tool input the model gave, with the request's usage; or why there is none. */
export type ExtractionCall =
  | { success: true; input: unknown; usage: Usage }
  | { success: false; problem: string; usage: Usage | null };
