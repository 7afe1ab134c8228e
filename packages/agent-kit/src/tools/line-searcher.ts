/** One matching line: its 1-based number and its text (cut at the searcher's `maxLineLength`, with `…`). */
export interface LineMatch {
  line: number;
  text: string;
}

/** Searches texts line by line for one regular expression, in a worker of its own. */
export interface LineSearcher {
  /** The first `limit` matching lines of `text`, or null when the search was stopped by the signal. */
  search(text: string, limit: number): Promise<LineMatch[] | null>;
  /** Ends the worker. */
  close(): void;
}

export interface StartLineSearcherOptions {
  /** A valid JavaScript regular expression (check it with `new RegExp` first: compiling is safe, matching is not). */
  pattern: string;
  maxLineLength: number;
  /** Aborting it terminates the worker at once, even in the middle of a match. */
  signal: AbortSignal;
}

/**
 * Starts a searcher. JavaScript regular expressions backtrack: `^(a+)+$` over a
 * line of thirty `a`s and a `b` takes exponential time, and a match cannot be
 * interrupted. Running it in a worker keeps this thread free (timers fire, a
 * step's lease is renewed, SIGTERM is handled) and lets the signal end it.
 */
export function startLineSearcher(options: StartLineSearcherOptions): LineSearcher {
  const worker = new Worker(workerUrl());
  let pending: { resolve: (matches: LineMatch[] | null) => void; reject: (error: Error) => void } | null = null;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.signal.removeEventListener("abort", end);
    worker.terminate();
    pending?.resolve(null);
    pending = null;
  };
  options.signal.addEventListener("abort", end, { once: true });
  worker.onmessage = (event: MessageEvent<Array<[number, string]>>) => {
    const waiting = pending;
    pending = null;
    waiting?.resolve(event.data.map(([line, text]) => ({ line, text })));
  };
  worker.onerror = (event: ErrorEvent) => {
    const waiting = pending;
    pending = null;
    waiting?.reject(new Error(`the search failed: ${event.message}`));
    end();
  };
  worker.postMessage({ pattern: options.pattern, maxLineLength: options.maxLineLength });
  if (options.signal.aborted) end();
  return {
    search(text, limit) {
      if (ended) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ text, limit });
      });
    },
    close: end,
  };
}

let cachedWorkerUrl: string | null = null;

/**
 * The worker's code as a blob URL: made from `searchLinesInWorker`'s own source,
 * so it needs no file of its own and works the same in the compiled binary.
 */
function workerUrl(): string {
  cachedWorkerUrl ??= URL.createObjectURL(
    new Blob([`(${searchLinesInWorker.toString()})();`], { type: "application/javascript" }),
  );
  return cachedWorkerUrl;
}

/** Runs inside the worker: it must not use anything from outside its own body. */
function searchLinesInWorker(): void {
  const scope = globalThis as unknown as {
    onmessage: ((event: { data: Record<string, unknown> }) => void) | null;
    postMessage(value: unknown): void;
  };
  let expression: RegExp | null = null;
  let maxLineLength = 0;
  scope.onmessage = (event) => {
    const message = event.data;
    if (typeof message.pattern === "string") {
      expression = new RegExp(message.pattern);
      maxLineLength = Number(message.maxLineLength);
      return;
    }
    const lines = String(message.text).split("\n");
    const limit = Number(message.limit);
    const matches: Array<[number, string]> = [];
    for (let index = 0; index < lines.length && matches.length < limit; index++) {
      const line = lines[index] ?? "";
      if (expression?.test(line) !== true) continue;
      matches.push([index + 1, line.length > maxLineLength ? `${line.slice(0, maxLineLength)}…` : line]);
    }
    scope.postMessage(matches);
  };
}
