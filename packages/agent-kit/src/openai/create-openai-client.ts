import type OpenAI from "openai";
import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "../tool-loop/request-limits.ts";

export interface CreateOpenaiClientOptions {
  apiKey: string;
  /** The server's base URL (…/v1); undefined: the SDK's default (`OPENAI_BASE_URL`, else the OpenAI API). */
  baseUrl: string | undefined;
  maxRetries?: number;
  requestTimeoutMs?: number;
}

export interface OpenaiModule {
  client: OpenAI;
  sdk: typeof import("openai");
}

/**
 * Loads the `openai` package (on first use only: commands that run no model never load it) and makes
 * a client with an explicit key, so the SDK never looks for credentials elsewhere, and bounded retries
 * (uwf's callers pass `maxRetries: 0` and retry with `callWithApiRetries`, errors mid-stream included).
 */
export async function createOpenaiClient(options: CreateOpenaiClientOptions): Promise<OpenaiModule> {
  const sdk = await import("openai");
  const client = new sdk.OpenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    logLevel: "off",
  });
  return { client, sdk };
}

/**
 * Whether the server is OpenAI's own API, which wants `max_completion_tokens` (its reasoning models
 * refuse `max_tokens`); other OpenAI-compatible servers (vLLM, llama.cpp, Ollama, gateways) are sent
 * `max_tokens`, which every one of them reads.
 */
export function isOpenaiPlatform(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}
