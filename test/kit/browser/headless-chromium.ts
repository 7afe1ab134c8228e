// A headless Chromium driven over the Chrome DevTools protocol (a WebSocket, no client library), for tests
// that open a page and check what it drew and what it logged: the HTML eval report, the web UI.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian's `chromium` is (or `UWF_CHROMIUM`), or null when it is not installed. */
export function findChromium(): string | null {
  const configured = process.env.UWF_CHROMIUM;
  if (configured !== undefined && configured !== "") return configured;
  return Bun.which("chromium") ?? Bun.which("chromium-browser");
}

/**
 * Why a browser test should be skipped: a message when Chromium is missing on a developer's machine, null
 * when it is there. Under CI (`CI` set) a missing Chromium is no reason: the test runs and fails.
 */
export function chromiumSkipReason(): string | null {
  if (findChromium() !== null) return null;
  if (process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false") return null;
  return "skipped: chromium is not installed (apt-get install chromium; .ci/run installs it)";
}

/** Something a page reported as wrong: a console.error, an uncaught exception, a failed load, a CSP refusal. */
export interface BrowserProblem {
  source: "console" | "exception" | "log";
  text: string;
}

export interface BrowserPage {
  /** Evaluates a JavaScript expression in the page (promises awaited) and returns its value as JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** What the page reported as errors since it was opened. */
  readonly problems: readonly BrowserProblem[];
  close(): Promise<void>;
}

export interface OpenPageOptions {
  /** The `prefers-color-scheme` the page sees; default: the browser's (light). */
  colorScheme?: "light" | "dark";
  /** False opens the page with JavaScript off (what a reader without scripts sees). */
  javaScript?: boolean;
}

export interface HeadlessChromium {
  /** Opens a new tab at `url` and resolves once its load event has fired. */
  openPage(url: string, options?: OpenPageOptions): Promise<BrowserPage>;
  close(): Promise<void>;
}

interface DevToolsMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

const STARTUP_TIMEOUT_MS = 30_000;
const COMMAND_TIMEOUT_MS = 30_000;

async function readDevToolsUrl(stderr: ReadableStream<Uint8Array>, output: { text: string }): Promise<string> {
  const reader = stderr.getReader();
  const decoder = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`chromium did not open its DevTools port in ${STARTUP_TIMEOUT_MS} ms:\n${output.text}`)),
      STARTUP_TIMEOUT_MS,
    );
  });
  try {
    while (true) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk.done) throw new Error(`chromium exited before opening its DevTools port:\n${output.text}`);
      output.text = (output.text + decoder.decode(chunk.value)).slice(-20_000);
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output.text);
      if (match?.[1] !== undefined) {
        // Keep reading, so Chromium never blocks on a full stderr pipe.
        void (async () => {
          for (let next = await reader.read(); !next.done; next = await reader.read()) {
            output.text = (output.text + decoder.decode(next.value)).slice(-20_000);
          }
        })().catch(() => {});
        return match[1];
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

function describeConsoleArguments(args: unknown): string {
  if (!Array.isArray(args)) return "";
  return args
    .map((argument: { value?: unknown; description?: string }) =>
      argument.value !== undefined ? String(argument.value) : (argument.description ?? ""),
    )
    .join(" ");
}

/**
 * Starts headless Chromium with a throw-away profile and no network beyond what pages ask for. Throws
 * when Chromium is not installed (see `chromiumSkipReason` for skipping instead).
 */
export async function launchChromium(): Promise<HeadlessChromium> {
  const executable = findChromium();
  if (executable === null) throw new Error("chromium is not installed (apt-get install chromium)");
  const profile = mkdtempSync(join(tmpdir(), "uwf-chromium-"));
  const child = Bun.spawn(
    [
      executable,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--mute-audio",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
  );
  const output = { text: "" };
  let socket: WebSocket;
  try {
    const url = await readDevToolsUrl(child.stderr, output);
    socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot connect to chromium at ${url}`)), { once: true });
    });
  } catch (error) {
    child.kill("SIGKILL");
    await child.exited;
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }

  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }
  >();
  const listeners = new Map<string, (message: DevToolsMessage) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as DevToolsMessage;
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result ?? {});
    } else if (message.sessionId !== undefined) {
      listeners.get(message.sessionId)?.(message);
    }
  });
  socket.addEventListener("close", () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`chromium closed the connection:\n${output.text}`));
    pending.clear();
  });

  function send(method: string, params: Record<string, unknown> = {}, sessionId?: string) {
    const id = nextId++;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`chromium did not answer ${method} in ${COMMAND_TIMEOUT_MS} ms`));
      }, COMMAND_TIMEOUT_MS);
      pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    });
  }

  async function openPage(url: string, options: OpenPageOptions = {}): Promise<BrowserPage> {
    const { targetId } = (await send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const problems: BrowserProblem[] = [];
    let loaded: () => void = () => {};
    const load = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    listeners.set(sessionId, (message) => {
      const params = message.params ?? {};
      if (message.method === "Page.loadEventFired") loaded();
      else if (message.method === "Runtime.consoleAPICalled" && (params.type === "error" || params.type === "assert")) {
        problems.push({ source: "console", text: describeConsoleArguments(params.args) });
      } else if (message.method === "Runtime.exceptionThrown") {
        const details = params.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
        problems.push({ source: "exception", text: details?.exception?.description ?? details?.text ?? "exception" });
      } else if (message.method === "Log.entryAdded") {
        const entry = params.entry as { level?: string; text?: string; url?: string } | undefined;
        if (entry?.level === "error")
          problems.push({ source: "log", text: `${entry.text ?? ""} ${entry.url ?? ""}`.trim() });
      }
    });
    await send("Page.enable", {}, sessionId);
    await send("Runtime.enable", {}, sessionId);
    await send("Log.enable", {}, sessionId);
    if (options.colorScheme !== undefined) {
      await send(
        "Emulation.setEmulatedMedia",
        { features: [{ name: "prefers-color-scheme", value: options.colorScheme }] },
        sessionId,
      );
    }
    if (options.javaScript === false) await send("Emulation.setScriptExecutionDisabled", { value: true }, sessionId);
    const navigation = (await send("Page.navigate", { url }, sessionId)) as { errorText?: string };
    if (navigation.errorText !== undefined) throw new Error(`chromium could not open ${url}: ${navigation.errorText}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      load,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${url} did not finish loading in ${COMMAND_TIMEOUT_MS} ms`)),
          COMMAND_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));

    return {
      problems,
      async evaluate<T>(expression: string): Promise<T> {
        const reply = (await send(
          "Runtime.evaluate",
          { expression, returnByValue: true, awaitPromise: true },
          sessionId,
        )) as {
          result?: { value?: unknown };
          exceptionDetails?: { text?: string; exception?: { description?: string } };
        };
        if (reply.exceptionDetails !== undefined) {
          const details = reply.exceptionDetails;
          throw new Error(`the page threw: ${details.exception?.description ?? details.text ?? "an exception"}`);
        }
        return reply.result?.value as T;
      },
      async close() {
        listeners.delete(sessionId);
        await send("Target.closeTarget", { targetId });
      },
    };
  }

  return {
    openPage,
    async close() {
      await send("Browser.close").catch(() => {});
      socket.close();
      const exited = await Promise.race([child.exited, Bun.sleep(5_000).then(() => null)]);
      if (exited === null) {
        child.kill("SIGKILL");
        await child.exited;
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
