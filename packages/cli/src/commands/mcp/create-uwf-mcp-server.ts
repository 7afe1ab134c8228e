import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Store } from "@uwf/cas";
import type { CliEvent, ListResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { VERSION } from "../../version.ts";
import type { CommandTable } from "../table/define-command.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";
import { MCP_TOOLS } from "./mcp-tools.ts";
import { runToolCommand, type ToolCommandOutcome } from "./run-tool-command.ts";

export interface CreateUwfMcpServerOptions {
  commands: CommandTable;
  context: CommandContext;
  store: Store;
  /** Offer only the tools that read the store. */
  readOnly: boolean;
  /** Aborted when the server stops: every running call is interrupted as Ctrl-C interrupts `uwf step`. */
  signal: AbortSignal;
  /** Each call's promise, so the server can wait for them before it closes the store. */
  track(call: Promise<unknown>): void;
}

/** The prefix of a thread's resource URI: `uwf://threads/01J9…`. */
export const THREAD_URI_PREFIX = "uwf://threads/";

/**
 * uwf's thread commands as MCP tools, and its threads as resources. Each tool runs the command
 * `uwf … --json` runs and returns its result: as JSON text, and as structured content checked
 * against the command's result schema where it has one shape.
 */
export function createUwfMcpServer(options: CreateUwfMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: "uwf", title: "uwf: multi-role agent workflows", version: VERSION },
    {
      instructions:
        "uwf runs multi-role agent workflows as threads in a store. start (or run) a thread of a workflow, step it (step_batch: many at once), read it with show, log and read, follow it while others step it, fork it to try another path, compare forks with diff, compare and tree, answer a suspended thread with resume, score threads or run a suite with eval. Workflows are named as registered (workflow_list); workflow_validate checks YAML text. Thread ids may be shortened to a unique prefix.",
    },
  );
  for (const spec of MCP_TOOLS) {
    if (options.readOnly && !spec.readOnly) continue;
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        ...(spec.output === undefined ? {} : { outputSchema: spec.output }),
        annotations: {
          readOnlyHint: spec.readOnly,
          destructiveHint: spec.name === "cancel",
          idempotentHint: spec.readOnly,
          openWorldHint: spec.runsAgents,
        },
      },
      (input: Record<string, unknown>, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) =>
        track(options, callTool(spec, input, extra, options)),
    );
  }
  registerThreadResources(server, options);
  return server;
}

function track<Value>(options: CreateUwfMcpServerOptions, call: Promise<Value>): Promise<Value> {
  options.track(call);
  return call;
}

async function callTool(
  spec: McpToolSpec,
  input: Record<string, unknown>,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  options: CreateUwfMcpServerOptions,
): Promise<CallToolResult> {
  const progressToken = extra._meta?.progressToken;
  let finished = 0;
  // Sent before the result: a client drops progress that comes after it.
  const notifications: Promise<void>[] = [];
  const onEvent = (event: CliEvent) => {
    if (progressToken === undefined || !(spec.runsAgents || spec.reportsSteps === true)) return;
    const told = progressMessage(event, spec.reportsSteps === true);
    if (told === undefined) return;
    // Several threads' steps interleave in a batch: each says whose it is.
    const message = spec.name === "step_batch" && "thread" in event ? `${event.thread} ${told}` : told;
    if (event.type === "step-finished") finished += 1;
    const total = spec.name === "step" && input.all !== true ? ((input.steps as number | undefined) ?? 1) : undefined;
    notifications.push(
      extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress: finished, ...(total === undefined ? {} : { total }), message },
        })
        .catch(() => {}),
    );
  };
  const outcome = await runToolCommand({
    spec,
    input,
    commands: options.commands,
    context: options.context,
    store: options.store,
    signal: AbortSignal.any([options.signal, extra.signal]),
    onEvent,
  });
  await Promise.all(notifications);
  return toToolResult(outcome, spec);
}

/** What a progress notification says about an event, if it is one worth telling (`follow` also tells how it stopped). */
function progressMessage(event: CliEvent, following: boolean): string | undefined {
  switch (event.type) {
    case "step-started":
      return `step ${event.number}: ${event.role} (${event.agent}) started`;
    case "step-finished":
      return `step ${event.number}: ${event.role} finished`;
    case "thread-ended":
      return following ? `thread ${event.thread} ended` : undefined;
    case "thread-suspended":
      return following ? `thread ${event.thread} suspended` : undefined;
    default:
      return undefined;
  }
}

/**
 * The command's result as the tool's: its JSON text, as structured content, and its exit code in
 * `_meta` (`20`: the thread is suspended; `10`: nothing to do). An error is an `isError` result
 * whose text is the CLI's `--json` error document, `{"error":{"code","message","data"}}`.
 */
export function toToolResult(outcome: ToolCommandOutcome, spec: Pick<McpToolSpec, "output">): CallToolResult {
  const meta = { _meta: { "uwf/exitCode": outcome.exitCode } };
  if (!outcome.ok) {
    const error = { error: outcome.error };
    const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(error) }];
    // What a command recorded before it failed is told too, as the CLI prints it before its error.
    if (outcome.result !== undefined) content.push({ type: "text", text: JSON.stringify(outcome.result) });
    // No structured content: a client checks it against the tool's output schema, which is the result's.
    return { isError: true, content, ...meta };
  }
  const isObject = typeof outcome.result === "object" && outcome.result !== null && !Array.isArray(outcome.result);
  return {
    content: [{ type: "text", text: JSON.stringify(outcome.result) }],
    ...(isObject || spec.output !== undefined ? { structuredContent: outcome.result as Record<string, unknown> } : {}),
    ...meta,
  };
}

/**
 * Threads as resources: `uwf://threads/{id}`, whose content is `uwf show ID --json`. The list is
 * `uwf list`'s (the newest threads); any thread can be read by its URI.
 */
function registerThreadResources(server: McpServer, options: CreateUwfMcpServerOptions): void {
  const run = (spec: McpToolSpec, input: Record<string, unknown>) =>
    track(
      options,
      runToolCommand({
        spec,
        input,
        commands: options.commands,
        context: options.context,
        store: options.store,
        signal: options.signal,
      }),
    );
  const listSpec = MCP_TOOLS.find((spec) => spec.name === "list") as McpToolSpec;
  const showSpec = MCP_TOOLS.find((spec) => spec.name === "show") as McpToolSpec;
  const template = new ResourceTemplate(`${THREAD_URI_PREFIX}{id}`, {
    list: async () => {
      const listed = await run(listSpec, {});
      if (!listed.ok) throw toMcpError(listed.error);
      return {
        resources: (listed.result as ListResult).threads.map((thread) => ({
          uri: `${THREAD_URI_PREFIX}${thread.id}`,
          name: thread.id,
          title: `${thread.workflow}: ${thread.status}`,
          description: `a thread of ${thread.workflow}, ${thread.status}, ${thread.stepCount} steps`,
          mimeType: "application/json",
        })),
      };
    },
    complete: {
      // Thread ids that start with what was typed, newest first (MCP takes at most 100).
      id: async (typed) => {
        const listed = await run(listSpec, { limit: 0 });
        if (!listed.ok) return [];
        const prefix = typed.toUpperCase();
        return (listed.result as ListResult).threads
          .map((thread) => thread.id)
          .filter((id) => id.startsWith(prefix))
          .slice(0, 100);
      },
    },
  });
  server.registerResource(
    "thread",
    template,
    {
      title: "A thread",
      description: "A thread's record, as `uwf show THREAD --json`",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = String(variables.id);
      const shown = await run(showSpec, { reference: decodeURIComponent(id) });
      if (!shown.ok) throw toMcpError(shown.error);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(shown.result) }] };
    },
  );
}

/** MCP's "resource not found" (-32002) for a thread that is not there; invalid params for any other refusal. */
function toMcpError(error: { code: string; message: string; data?: unknown }): McpError {
  const notFound = error.code === "thread-not-found" || error.code === "node-not-found";
  return new McpError(notFound ? -32002 : ErrorCode.InvalidParams, error.message, { error });
}
