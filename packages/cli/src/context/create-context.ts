import { hostname } from "node:os";
import type { Store } from "@uwf/cas";
import type { Config } from "@uwf/protocol";
import { escapeControlCharacters } from "../format/text/escape-control-characters.ts";
import type { CommandContext } from "../pipeline/command-context.ts";
import { telemetryWanted } from "../telemetry/telemetry-wanted.ts";
import { stderrIsTerminal } from "../terminal/standard-streams.ts";

/**
 * What the pipeline (or the web UI's and MCP's backends, which run commands of the table outside it)
 * decides before a command runs; the rest of the context is derived from it.
 */
export type CreateContextOptions = Pick<
  CommandContext,
  | "home"
  | "storeFlag"
  | "cwd"
  | "env"
  | "json"
  | "jsonLines"
  | "quiet"
  | "verbose"
  | "color"
  | "interactive"
  | "signal"
  | "secondSignal"
  | "newId"
  | "progress"
  | "emit"
>;

export function createContext(options: CreateContextOptions): CommandContext {
  let store: Promise<Store> | undefined;
  let config: Promise<Config> | undefined;
  // What goes to a terminal is escaped: notes, warnings and -v quote what agents wrote (see print.ts).
  const forStderr = stderrIsTerminal() ? escapeControlCharacters : (text: string) => text;
  const note = (message: string) => {
    if (!options.quiet && !options.json) process.stderr.write(`${forStderr(message)}\n`);
  };
  return {
    ...options,
    host: hostname(),
    now: () => new Date(),
    openStore(openOptions = {}) {
      store ??= (async () => {
        const { openStoreFromEnvironment } = await import("../home/open-store.ts");
        const opened = await openStoreFromEnvironment(options.home, options.env, {
          create: openOptions.create !== false,
          storeFlag: options.storeFlag,
          onMissingHome: (home) => note(`no uwf home at ${home}: read as empty (nothing was created)`),
          onReadOnlyHome: (home, reason) =>
            note(`the store in ${home} cannot be written, so it is read read-only: ${reason}`),
        });
        // OpenTelemetry export (docs/observability.md): the steps this store commits become spans.
        if (!telemetryWanted(options.env)) return opened;
        const { observeForTelemetry } = await import("../telemetry/live-telemetry.ts");
        return observeForTelemetry(opened, options.env);
      })();
      return store;
    },
    async close() {
      if (store === undefined) return;
      // The spans are built from the store, so they are sent (within the exit deadline) before it closes.
      if (telemetryWanted(options.env)) await (await import("../telemetry/live-telemetry.ts")).flushTelemetry();
      await (await store).close();
    },
    loadConfig() {
      config ??= import("../home/load-home-config.ts").then(({ loadConfig }) => loadConfig(options.home));
      return config;
    },
    warn(message: string) {
      if (!options.quiet) process.stderr.write(`warning: ${forStderr(message)}\n`);
    },
    note,
    agentStderr(chunk: string) {
      if (options.verbose) process.stderr.write(forStderr(chunk));
    },
    progress: options.progress,
  };
}
