import type { UiServer } from "@uwf/ui";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { VERSION } from "../../version.ts";
import type { CommandTable } from "../define-command.ts";
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

/** Serves the web UI over the current store until a stop signal (Ctrl-C, SIGTERM). */
export async function uiCommand(
  options: UiCommandOptions,
  context: CommandContext,
  commands: CommandTable,
): Promise<CommandOutcome<UiResult>> {
  const store = await context.openStore({ create: false });
  const { startUiServer, UI_DEFAULT_PORT } = await import("@uwf/ui");
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
  const server: UiServer = await startUiServer({
    backend,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? UI_DEFAULT_PORT,
    readOnly: options.readOnly === true,
    ...(options.token === undefined ? {} : { token: options.token }),
    version: VERSION,
  });
  await context.emit({
    type: "ui-started",
    thread: null,
    url: server.url,
    readOnly: options.readOnly === true,
    at: context.now().toISOString(),
  });
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.stop();
  await feed.close();
  return {
    result: { url: server.url, stoppedBy: String(context.signal.reason ?? "signal") },
    format: () => "",
    streamed: true,
  };
}
