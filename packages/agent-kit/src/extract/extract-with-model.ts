import { type Config, isObject, type JsonSchemaObject, messageOf, type Usage } from "@uwf/protocol";
import {
  ASK_KEYWORD,
  CONVENTION_KEYWORD,
  formatFrontmatter,
  REASON_FIELD,
  STATUS_FIELD,
  SUSPEND_STATUS,
} from "@uwf/workflow";
import { createAnthropicClient } from "../anthropic/create-anthropic-client.ts";
import { callWithApiRetries } from "../tool-loop/call-with-api-retries.ts";
import { captureSdkWarnings } from "../tool-loop/capture-sdk-warnings.ts";
import { computeUsage } from "../tool-loop/compute-usage.ts";
import { describeApiError } from "../tool-loop/describe-api-error.ts";
import { apiKeyHint, readApiKey } from "../tool-loop/read-api-key.ts";
import { DEFAULT_MAX_RETRIES } from "../tool-loop/request-limits.ts";
import { resolveModelSettings } from "../tool-loop/resolve-model-settings.ts";
import { safeExtractFrontmatter } from "./extract-frontmatter.ts";
import type { ExtractionCall, ExtractionRequest } from "./extraction-request.ts";
import { splitFrontmatter } from "./split-frontmatter.ts";
import { toWireSchema } from "./to-wire-schema.ts";

/** The tool the extraction model is made to call; its input schema is the role's reply schema. */
export const EXTRACTION_TOOL_NAME = "report_fields";
const EXTRACTION_MAX_TOKENS = 4_096;

export interface ExtractWithModelOptions {
  /** Gives `extractionModel`, and the providers and models it is looked up in. */
  config: Config;
  /** The uwf home, whose `.env` may hold the key. */
  home: string;
  reply: string;
  /** The role's reply schema (`buildReplySchema`). */
  schema: JsonSchemaObject;
  roleName: string;
  signal?: AbortSignal;
  environment?: Readonly<Record<string, string | undefined>>;
  /** Retries of the request on connection errors and 408/409/429/5xx/529. Default 4. */
  maxRetries?: number;
}

export type ExtractWithModelResult =
  | { success: true; fields: Record<string, unknown>; body: string; usage: Usage; model: string }
  | { success: false; problem: string; usage: Usage | null };

/**
 * LLM extraction, the fallback when an agent's reply still has no valid
 * frontmatter after the retries: the `extractionModel` of config.yaml is made
 * to call one tool (the Messages API's `tool_choice: { type: "tool" }`, or a
 * forced function on Chat Completions when the model's provider is of type
 * `openai`) whose input schema is the
 * role's reply schema with wire-safe property names (`toWireSchema`: the API
 * refuses `$status` as a key), and the tool input, its keys mapped back, is
 * validated exactly like a frontmatter reply. The body is the reply without
 * any broken frontmatter. Never throws; without `extractionModel` it reports
 * that it was skipped.
 */
export async function extractWithModel(options: ExtractWithModelOptions): Promise<ExtractWithModelResult> {
  const { config } = options;
  if (config.extractionModel === undefined) {
    return { success: false, problem: "no extractionModel in config.yaml", usage: null };
  }
  let settings: ReturnType<typeof resolveModelSettings>;
  try {
    settings = resolveModelSettings({ config, model: config.extractionModel });
  } catch (error) {
    return { success: false, problem: messageOf(error), usage: null };
  }
  const key = await readApiKey(settings.apiKeyEnv, options.home, options.environment);
  if (key === null) {
    return {
      success: false,
      problem: `no API key for the extraction model (${settings.apiKeyEnv}); ${apiKeyHint(settings.apiKeyEnv)}`,
      usage: null,
    };
  }
  const split = splitFrontmatter(options.reply);
  const body = (split.success ? split.body : options.reply).trim();
  const ask = askFieldsOf(options.schema);
  const wire = toWireSchema(toToolSchema(options.schema, ask));
  const request: ExtractionRequest = {
    apiKey: key.value,
    settings,
    maxTokens: Math.min(settings.maxTokens, EXTRACTION_MAX_TOKENS),
    system:
      "You read the reply an agent gave for one step of a workflow and report the structured fields it states, " +
      `by calling the ${EXTRACTION_TOOL_NAME} tool once. Take every value from the reply; leave out optional fields it does not support.` +
      (ask === null ? "" : ` ${describeAsk(ask)}`),
    user: `The reply of the role "${options.roleName}":\n\n<reply>\n${options.reply}\n</reply>`,
    toolName: EXTRACTION_TOOL_NAME,
    toolDescription: `The fields of the ${options.roleName} role's reply.`,
    inputSchema: wire.schema as { type: "object" },
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  // The model's provider decides the API: the Messages API's forced tool, or a forced function on Chat Completions.
  const call =
    settings.providerType === "openai"
      ? await (await import("../openai/request-openai-extraction.ts")).requestOpenaiExtraction(request)
      : await requestAnthropicExtraction(request);
  if (!call.success) return { success: false, problem: call.problem, usage: call.usage };
  const { usage } = call;
  const input = wire.restore(call.input);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { success: false, problem: "the extraction model's tool input is not an object", usage };
  }
  const checked = safeExtractFrontmatter(formatFrontmatter(input as Record<string, unknown>, body), options.schema);
  if (!checked.success)
    return { success: false, problem: `the extracted fields are invalid: ${checked.error.problem}`, usage };
  return { success: true, ...checked.value, usage, model: settings.model };
}

/**
 * The Messages API's part of `extractWithModel`: one request that must call the tool
 * (`tool_choice: { type: "tool" }`), retried as the built-in agent's requests are.
 */
async function requestAnthropicExtraction(request: ExtractionRequest): Promise<ExtractionCall> {
  // uwf counts and paces the retries itself, as the built-in agent does.
  const { client, sdk } = await createAnthropicClient({
    apiKey: request.apiKey,
    baseUrl: request.settings.baseUrl,
    maxRetries: 0,
  });
  const params = {
    model: request.settings.model,
    max_tokens: request.maxTokens,
    system: request.system,
    messages: [{ role: "user" as const, content: request.user }],
    tools: [{ name: request.toolName, description: request.toolDescription, input_schema: request.inputSchema }],
    tool_choice: { type: "tool" as const, name: request.toolName },
  };
  const answered = await callWithApiRetries(
    () =>
      captureSdkWarnings(
        () => client.messages.create(params, request.signal === undefined ? {} : { signal: request.signal }),
        () => {},
      ),
    {
      sdk,
      maxRetries: request.maxRetries,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
  );
  if (!answered.success) {
    return {
      success: false,
      problem: describeApiError(answered.error, sdk, request.settings, answered.attempts).message,
      usage: null,
    };
  }
  const message = answered.value;
  const usage = computeUsage(message.usage, request.settings.prices);
  const call = message.content.find((block) => block.type === "tool_use" && block.name === request.toolName);
  if (call === undefined || call.type !== "tool_use") {
    return { success: false, problem: `the extraction model did not call ${request.toolName}`, usage };
  }
  return { success: true, input: call.input, usage };
}

/** A role's `ask:` (the fields a reply that suspends to ask a person gives): its properties and required ones. */
interface AskFields {
  properties: Record<string, unknown>;
  required: string[];
}

function askFieldsOf(schema: JsonSchemaObject): AskFields | null {
  const ask = schema[ASK_KEYWORD];
  if (!isObject(ask)) return null;
  const properties = isObject(ask.properties) ? ask.properties : {};
  const required = Array.isArray(ask.required)
    ? ask.required.filter((name): name is string => typeof name === "string")
    : [];
  return { properties, required };
}

/** What the extraction model is told of a suspending reply: which fields it reports then. */
function describeAsk(ask: AskFields): string {
  const names = Object.keys(ask.properties);
  const required = ask.required.length === 0 ? "" : ` (required then: ${ask.required.join(", ")})`;
  return (
    `When the reply stops to ask a person a question instead of finishing, report status "${SUSPEND_STATUS}", ` +
    `"${REASON_FIELD}" (why it stops and what it needs), and the question's fields ${names.map((name) => `"${name}"`).join(", ")}${required}; ` +
    "the other fields are not required then."
  );
}

/**
 * The reply schema as a tool input schema: an object schema without uwf's own annotation keywords. A
 * role's `ask:` fields are added as properties (the question a suspending reply asks: without them the
 * model cannot report it, and it would be lost), and only the fields both kinds of reply require stay
 * required; the extracted fields are checked against the whole reply schema afterwards.
 */
function toToolSchema(schema: JsonSchemaObject, ask: AskFields | null): { type: "object"; [key: string]: unknown } {
  const cleaned = stripKeyword(schema) as Record<string, unknown>;
  if (ask === null) return { ...cleaned, type: "object" };
  const properties = isObject(cleaned.properties) ? { ...cleaned.properties } : {};
  for (const [name, property] of Object.entries(ask.properties)) {
    if (name in properties) continue;
    const described = isObject(property) ? property : {};
    const note = `Only when ${STATUS_FIELD} is ${SUSPEND_STATUS}: part of the question to the person.`;
    const description = typeof described.description === "string" ? `${note} ${described.description}` : note;
    properties[name] = { ...(stripKeyword(described) as Record<string, unknown>), description };
  }
  const whenSuspended = new Set([...ask.required, STATUS_FIELD, REASON_FIELD]);
  const required = Array.isArray(cleaned.required)
    ? cleaned.required.filter((name) => typeof name === "string" && whenSuspended.has(name))
    : [];
  return { ...cleaned, type: "object", properties, required };
}

function stripKeyword(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripKeyword);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    if (key !== CONVENTION_KEYWORD && key !== ASK_KEYWORD) copy[key] = stripKeyword(item);
  return copy;
}
