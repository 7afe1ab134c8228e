import { afterAll, afterEach, beforeAll } from "bun:test";
import type { Store } from "@uwf/cas";
import type { LiveEvent } from "@uwf/protocol";
import { startUiServer, type UiBackend, type UiServer, type UiServerOptions } from "@uwf/ui";
import { COMMAND_TABLE } from "../../src/commands/command-table.ts";
import { createCommandBackend } from "../../src/commands/ui/command-backend.ts";
import { tempHomeMachineContext } from "../helpers/machine-context.ts";
import { createTempHome, currentWhileTestRuns, type TempHome } from "../helpers/temp-home.ts";

/**
 * The `uwf ui` API tests' set-up: a temp home, its store opened for the CLI's backend (each endpoint runs
 * its command on the store, as `uwf … --json` would), and UI servers on it, with the page's requests.
 */

export interface UseUiApiOptions {
  /** The token the servers ask for (each test may serve without one). */
  token: string;
  /** Writes the home's config and whatever else it needs, before the store is opened. */
  setUp(temp: TempHome): Promise<void> | void;
  /** What the backend gives the server for the store's change feed: by default no events. */
  subscribe?: (listener: (event: LiveEvent) => void) => () => void;
}

export interface UiApi {
  /** The home (an object that stands for it while the file's tests run). */
  readonly temp: TempHome;
  /** A UI server on the backend, on a free port of 127.0.0.1, stopped after the test. */
  serve(options?: Partial<UiServerOptions>): Promise<{ server: UiServer; base: string }>;
  /** A POST as the page makes it: the session cookie, from the server's own origin. */
  pagePost(base: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Made once for the file's tests (beforeAll), removed after them; the servers a test starts stop after it. */
export function useUiApi(options: UseUiApiOptions): UiApi {
  let temp: TempHome | undefined;
  let opened: { store: Store; backend: UiBackend } | undefined;
  const servers: UiServer[] = [];
  beforeAll(async () => {
    temp = createTempHome();
    await options.setUp(temp);
    const context = tempHomeMachineContext(temp);
    const store = await context.openStore();
    opened = {
      store,
      backend: createCommandBackend(COMMAND_TABLE, context, store, options.subscribe ?? (() => () => {})),
    };
  }, 60_000);
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });
  afterAll(async () => {
    await opened?.store.close();
    temp?.cleanup();
    temp = undefined;
    opened = undefined;
  });
  return {
    temp: currentWhileTestRuns(() => temp, "the temp home"),
    async serve(serverOptions = {}) {
      if (opened === undefined) throw new Error("the UI backend exists only while the file's tests run");
      const server = await startUiServer({
        backend: opened.backend,
        host: "127.0.0.1",
        port: 0,
        readOnly: false,
        token: options.token,
        version: "test",
        ...serverOptions,
      });
      servers.push(server);
      return { server, base: `http://127.0.0.1:${server.port}` };
    },
    pagePost(base, path, body = {}, headers = {}) {
      return fetch(`${base}${path}`, {
        method: "POST",
        headers: {
          cookie: `uwf-ui-${new URL(base).port}=${options.token}`,
          origin: base,
          "content-type": "application/json",
          ...headers,
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    },
  };
}
