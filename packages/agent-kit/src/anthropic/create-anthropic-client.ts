import type Anthropic from "@anthropic-ai/sdk";

import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "../tool-loop/request-limits.ts";

export interface CreateAnthropicClientOptions {
  apiKey: string;
  baseUrl: string | undefined;
  maxRetries?: number;
  requestTimeoutMs?: number;
}

export interface AnthropicModule {
  client: Anthropic;
  sdk: typeof import("@anthropic-ai/sdk");
}

/**
 * Loads @anthropic-ai/sdk (on first use only: commands that run no model never
 * load it) and makes a client with an explicit key, so the SDK never looks for
 * credentials elsewhere, and bounded retries (uwf's callers pass `maxRetries: 0`
 * and retry with `callWithApiRetries`, which also retries errors mid-stream).
 */
export async function createAnthropicClient(options: CreateAnthropicClientOptions): Promise<AnthropicModule> {
  const sdk = await import("@anthropic-ai/sdk");
  const client = new sdk.Anthropic({
    apiKey: options.apiKey,
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    openTelemetry: false,
    logLevel: "off",
  });
  return { client, sdk };
}
