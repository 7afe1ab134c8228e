import { UsageError } from "../../errors/usage-error.ts";
import { EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import type { CommandTable } from "../table/define-command.ts";

export interface McpCommandOptions {
  /** Offer only the tools that read the store (show, log, read, list, diff, follow, tree, compare, …). */
  readOnly?: boolean;
}

export interface McpResult {
  /** What stopped the server: `stdin closed` (the client went away), or the signal. */
  stoppedBy: string;
}

/**
 * Serves uwf's thread commands as MCP tools on stdio until the client closes stdin or a stop signal
 * comes. stdout carries the MCP messages and nothing else, so the command prints no result and
 * `--json` is refused; notes and warnings still go to stderr. A call still running when it stops is
 * interrupted as Ctrl-C interrupts `uwf step` (the thread stays at its old head), and the store is
 * closed once every call has returned.
 */
export async function mcpCommand(
  options: McpCommandOptions,
  context: CommandContext,
  commands: CommandTable,
): Promise<CommandOutcome<McpResult>> {
  if (context.json) {
    throw new UsageError("uwf mcp speaks MCP on stdout, so it has no --json or --jsonl output: leave the flag out");
  }
  // The SDK is loaded only here: no other command pays for it.
  const [{ LineStdioTransport }, { createUwfMcpServer }, { trackOpenRequests }] = await Promise.all([
    import("./line-stdio-transport.ts"),
    import("./create-uwf-mcp-server.ts"),
    import("./track-open-requests.ts"),
  ]);
  const store = await context.openStore({ create: options.readOnly !== true });
  const stop = new AbortController();
  const stopped = Promise.withResolvers<string>();
  const calls = new Set<Promise<unknown>>();
  const server = createUwfMcpServer({
    commands,
    // A client names workflows by what the store holds, never by a path: it must not read the user's files.
    context: { ...context, storedWorkflowsOnly: true },
    store,
    readOnly: options.readOnly === true,
    signal: AbortSignal.any([stop.signal, context.signal]),
    track(call) {
      calls.add(call);
      void call.finally(() => calls.delete(call)).catch(() => {});
    },
  });
  // uwf reads the lines itself: a malformed or oversized message is answered with its JSON-RPC error
  // (and a warning on stderr) while the server goes on, where the SDK's transport would stop reading.
  const transport = new LineStdioTransport({ onRefused: (problem) => context.warn(`uwf mcp: ${problem}`) });
  transport.onclose = () => stopped.resolve("stdin closed");
  const onEnd = () => stopped.resolve("stdin closed");
  process.stdin.once("end", onEnd);
  process.stdin.once("close", onEnd);
  const onAbort = () => stopped.resolve(String(context.signal.reason ?? "signal"));
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener("abort", onAbort, { once: true });
  await server.connect(transport);
  const requests = trackOpenRequests(transport);
  const stoppedBy = await stopped.promise;
  stop.abort(stoppedBy);
  await Promise.allSettled([...calls]);
  await requests.answered();
  process.stdin.off("end", onEnd);
  process.stdin.off("close", onEnd);
  await server.close();
  return { result: { stoppedBy }, format: () => "", exitCode: exitCodeFor(context.signal) };
}

/** As `uwf ui` and `uwf worker`: SIGTERM, the way services are stopped, exits 0; SIGINT 130 and SIGHUP 129. */
function exitCodeFor(signal: AbortSignal): number {
  if (signal.reason === "SIGINT") return EXIT_INTERRUPTED;
  if (signal.reason === "SIGHUP") return EXIT_HANGUP;
  return EXIT_OK;
}
