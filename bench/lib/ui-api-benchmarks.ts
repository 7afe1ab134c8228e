/**
 * Issue 30's API benchmark: the compiled `uwf ui` serving the 100,000-thread store, timed as a page
 * fetches it over HTTP on 127.0.0.1: the thread list's first page (what `/` loads), and a 1,000-step
 * thread's page data (its record and its steps, fetched together as the thread page does).
 */
import { round, type Summary, summarize } from "./measure.ts";

export interface UiApiPlan {
  runs: number;
  warmup: number;
}

export interface UiApiResult {
  threads: number;
  /** GET /api/threads?limit=30. */
  listPage: Summary;
  /** GET /api/threads/T and /api/threads/T/log at once, for the thread of `threadSteps` steps. */
  threadPage: Summary;
  /** Issue 46: GET /api/threads?q=PREFIX&limit=30, PREFIX the first 6 characters of a thread id (the store's own index of ids). */
  searchPage?: Summary;
  threadSteps: number;
  /** From spawning `uwf ui` to its URL on stdout. */
  startMs: number;
}

const LIST_TARGET_MS = 50;
const THREAD_TARGET_MS = 100;

export async function measureUiApi(options: {
  binary: string;
  cwd: string;
  env: Record<string, string | undefined>;
  threads: number;
  thread: { id: string; steps: number };
  plan: UiApiPlan;
}): Promise<UiApiResult> {
  const started = performance.now();
  const child = Bun.spawn([options.binary, "ui", "--port", "0", "--read-only"], {
    cwd: options.cwd,
    env: options.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const origin = await readOrigin(child.stdout);
    const startMs = round(performance.now() - started);
    const listPath = `${origin}/api/threads?limit=30`;
    const threadPaths = [
      `${origin}/api/threads/${options.thread.id}`,
      `${origin}/api/threads/${options.thread.id}/log`,
    ];
    const searchPath = `${origin}/api/threads?q=${options.thread.id.slice(0, 6)}&limit=30`;
    const list: number[] = [];
    const thread: number[] = [];
    const search: number[] = [];
    for (let run = 0; run < options.plan.warmup + options.plan.runs; run++) {
      const listMs = await timeFetches([listPath]);
      const threadMs = await timeFetches(threadPaths);
      const searchMs = await timeFetches([searchPath]);
      if (run < options.plan.warmup) continue;
      list.push(listMs);
      thread.push(threadMs);
      search.push(searchMs);
    }
    return {
      threads: options.threads,
      listPage: summarize(list),
      threadPage: summarize(thread),
      searchPage: summarize(search),
      threadSteps: options.thread.steps,
      startMs,
    };
  } finally {
    child.kill("SIGTERM");
    await child.exited;
  }
}

/** The wall time of fetching every path at once and reading each body whole; a failed request fails the benchmark. */
async function timeFetches(paths: readonly string[]): Promise<number> {
  const started = performance.now();
  await Promise.all(
    paths.map(async (path) => {
      const response = await fetch(path);
      const body = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`);
    }),
  );
  return performance.now() - started;
}

async function readOrigin(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdout) {
    text += decoder.decode(chunk);
    const found = /https?:\/\/[^\s/]+/.exec(text);
    if (found !== null) return found[0];
  }
  throw new Error(`uwf ui exited without printing its URL: ${text}`);
}

/** Issue 30: a page of the thread list in ≤ 50 ms and a 1,000-step thread's page data in ≤ 100 ms (medians). */
export function checkUiApiTargets(result: UiApiResult): { target: string; measured: string; met: boolean }[] {
  return [
    {
      target: `ui: thread-list page (${result.threads.toLocaleString("en-US")} threads) ≤ ${LIST_TARGET_MS} ms`,
      measured: `${result.listPage.medianMs} ms median`,
      met: result.listPage.medianMs <= LIST_TARGET_MS,
    },
    {
      target: `ui: ${result.threadSteps.toLocaleString("en-US")}-step thread's page data ≤ ${THREAD_TARGET_MS} ms`,
      measured: `${result.threadPage.medianMs} ms median`,
      met: result.threadPage.medianMs <= THREAD_TARGET_MS,
    },
    ...(result.searchPage === undefined
      ? []
      : [
          {
            target: `ui: search page, GET /api/threads?q= (${result.threads.toLocaleString("en-US")} threads) ≤ ${LIST_TARGET_MS} ms`,
            measured: `${result.searchPage.medianMs} ms median`,
            met: result.searchPage.medianMs <= LIST_TARGET_MS,
          },
        ]),
  ];
}
