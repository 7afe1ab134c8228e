import { existsSync } from "node:fs";
import { join } from "node:path";
import { refDatabasePath } from "@uwf/cas";
import type { UiServer, UiServerOptions } from "@uwf/ui";
import { ListenFailedError } from "../../errors/listen-failed-error.ts";
import { UsageError } from "../../errors/usage-error.ts";
import { EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { VERSION } from "../../version.ts";
import type { CommandTable } from "../table/define-command.ts";
import { createCommandBackend } from "./command-backend.ts";
import { createLiveFeed } from "./live-feed.ts";

export interface UiCommandOptions {
  port?: number;
  host?: string;
  open?: boolean;
  readOnly?: boolean;
  token?: string;
}

export interface UiResult {
  url: string;
  stoppedBy: string;
}

/** A token given with `--token`: long enough not to be guessed, and safe in a URL and a cookie as it is. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,}$/;

/**
 * Serves the web UI over the current store until a stop signal (Ctrl-C, SIGTERM). Its one line of output
 * is the `ui-started` event (text, or a JSON line under `--jsonl`); `--json`, whose one document comes
 * when a command is done, is refused: this one is done only when stopped. Like `uwf worker`, it exits 0
 * for SIGTERM (the way services are stopped), 130 for SIGINT and 129 for SIGHUP; actions running when it
 * stops are interrupted as Ctrl-C interrupts `uwf step`.
 */
export async function uiCommand(
  options: UiCommandOptions,
  context: CommandContext,
  commands: CommandTable,
): Promise<CommandOutcome<UiResult>> {
  if (context.json && context.jsonLines !== true) {
    throw new UsageError(
      "uwf ui serves until it is stopped, so it has no --json document: --jsonl prints its ui-started line (with the URL) as soon as it listens",
    );
  }
  const host = options.host ?? "127.0.0.1";
  const { isLoopbackHost, startUiServer, UI_DEFAULT_PORT } = await import("@uwf/ui");
  if (options.port !== undefined && options.port > 65535) {
    throw new UsageError(`--port ${options.port} is no port: give 0 to 65535 (0: a free one)`, {
      port: options.port,
    });
  }
  if (options.token !== undefined && !TOKEN_PATTERN.test(options.token)) {
    throw new UsageError("--token needs 16 or more characters of A-Z a-z 0-9 . _ ~ -");
  }
  if (!isLoopbackHost(host) && options.token === undefined && options.readOnly !== true) {
    throw new UsageError(
      `--host ${host} is not a loopback address: anyone who reaches it could act on your threads, so give --token TOKEN (every request then needs it) or --read-only`,
      { host },
    );
  }
  // A home with no store yet gets one: an empty stand-in would never see what is made after the server starts.
  // Under --read-only a store that is there is opened only to read (it may be someone else's, or read-only).
  const store = await context.openStore({ create: options.readOnly !== true || !homeHasStore(context.home) });
  // Said once while the same error repeats (each change signal meets it again while the store is out of reach).
  let lastProblem = "";
  const feed = createLiveFeed(store, {
    onError: (error) => {
      const problem = `the live feed could not read the store: ${(error as Error).message}`;
      if (problem !== lastProblem) context.warn(problem);
      lastProblem = problem;
    },
  });
  const backend = createCommandBackend(commands, context, store, feed.watch);
  const serverOptions: Omit<UiServerOptions, "port"> = {
    backend,
    host,
    readOnly: options.readOnly === true,
    ...(options.token === undefined ? {} : { token: options.token }),
    version: VERSION,
    signal: context.signal,
  };
  const listen = async (port: number): Promise<UiServer> => {
    try {
      return await startUiServer({ ...serverOptions, port });
    } catch (error) {
      throw listenError(error, host, port);
    }
  };
  let server: UiServer;
  if (options.port !== undefined) server = await listen(options.port);
  else {
    try {
      server = await listen(UI_DEFAULT_PORT);
    } catch (error) {
      if (!(error instanceof ListenFailedError) || error.data.reason !== IN_USE) throw error;
      server = await listen(0);
      context.note(`port ${UI_DEFAULT_PORT} is in use, so uwf ui listens on port ${server.port}`);
    }
  }
  try {
    await context.emit({
      type: "ui-started",
      thread: null,
      url: server.url,
      readOnly: options.readOnly === true,
      at: context.now().toISOString(),
    });
    if (options.open === true) openInBrowser(server.url, context);
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    await server.stop(String(context.signal.reason ?? "stopped"));
    await feed.close();
  }
  return {
    result: { url: server.url, stoppedBy: String(context.signal.reason ?? "signal") },
    format: () => "",
    exitCode: exitCodeFor(context.signal),
    streamed: true,
  };
}

const IN_USE = "the port is in use";

/** Whether the home holds an embedded store already (its objects or its ref database). */
function homeHasStore(home: string): boolean {
  return existsSync(join(home, "objects")) || existsSync(refDatabasePath(home));
}

/** Bun's listen errors as uwf's: which address and port, and why, in words. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown }).code;
  const reasons: Record<string, string> = {
    EADDRINUSE: IN_USE,
    EADDRNOTAVAIL: "the address is not one of this machine's",
    EACCES: "not allowed (a port under 1024 needs privileges)",
    EINVAL: "not an address this machine can listen on",
  };
  const reason = typeof code === "string" ? reasons[code] : undefined;
  return reason === undefined ? error : new ListenFailedError(host, port, reason, error);
}

/** `--open`: the page in the default browser; a machine without an opener gets a warning, not a failure. */
function openInBrowser(url: string, context: CommandContext): void {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const cannot = (why: string) => context.warn(`cannot open a browser (${why}): open ${url} yourself`);
  try {
    const child = Bun.spawn([opener, url], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    void child.exited.then((code) => {
      if (code !== 0) cannot(`${opener} exited ${code}`);
    });
  } catch {
    cannot(`${opener} was not found`);
  }
}

/** As `uwf worker`: SIGTERM, the way services are stopped, exits 0; SIGINT 130 and SIGHUP 129, as for other commands. */
function exitCodeFor(signal: AbortSignal): number {
  if (signal.reason === "SIGINT") return EXIT_INTERRUPTED;
  if (signal.reason === "SIGHUP") return EXIT_HANGUP;
  return EXIT_OK;
}
