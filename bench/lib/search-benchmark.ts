/**
 * Issue 46 item 5: `GET /api/threads?q=` (and `uwf list --search`) within 50 ms on 100,000 threads. The
 * ref store's search (SQLite FTS5) over threads whose index holds what a real store's does: the id and
 * workflow (indexed by the store), a prompt of a dozen words from a 5,000-word vocabulary, two roles
 * and a few field values. Timed in process, newest page of 30 with its total, for a rare word, a word
 * every thread has, an id prefix and two words together. Run alone: `bun bench/lib/search-benchmark.ts [--smoke]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createSqliteRefStore } from "../../packages/cas/src/index.ts";
import { sampleThreadRecord } from "../../packages/cas/src/testing/index.ts";
import { round, type Summary, summarize } from "./measure.ts";
import type { TargetCheck } from "./report.ts";
import { ulidAt } from "./ulid.ts";

export interface SearchPlan {
  threads: number;
  runs: number;
}

export const SEARCH_PLANS = { full: { threads: 100_000, runs: 30 }, smoke: { threads: 5_000, runs: 5 } } as const;

export interface SearchResult {
  threads: number;
  /** Building the store and its index, once. */
  indexMs: number;
  /** `matches`: the search's total, counted up to 1,000 (`more`: more match). */
  queries: { name: string; text: string; matches: number; more: boolean; time: Summary }[];
}

const SEARCH_TARGET_MS = 50;
const VOCABULARY = 5_000;

/** A deterministic word of the vocabulary: letters only, so every backend tokenizes it as one word. */
function word(index: number): string {
  let text = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor(rest / 26)) text += String.fromCharCode(97 + (rest % 26));
  return `w${text}`;
}

export async function measureSearch(options: { folder: string; plan: SearchPlan; progress(message: string): void }) {
  const refs = createSqliteRefStore(join(options.folder, "refs.sqlite"));
  try {
    const started = performance.now();
    const ids: string[] = [];
    let seed = 1;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const base = Date.UTC(2026, 0, 1);
    for (let first = 0; first < options.plan.threads; first += 1000) {
      const batch = [];
      for (let index = first; index < Math.min(first + 1000, options.plan.threads); index++) {
        const id = ulidAt(base + index * 1000, random);
        ids.push(id);
        batch.push(sampleThreadRecord({ id, workflow: index % 3 === 0 ? "review-loop" : "triage" }));
      }
      await refs.createThreads(batch);
      for (const record of batch) {
        const prompt = Array.from({ length: 12 }, () => word(Math.floor(random() ** 2 * VOCABULARY))).join(" ");
        await refs.indexThreadText(record.id, [`${prompt} common`, "writer", "reviewer", `approved ${random() > 0.5}`]);
      }
    }
    const indexMs = round(performance.now() - started);
    options.progress(`search: ${options.plan.threads} threads indexed in ${indexMs} ms`);
    const rare = word(VOCABULARY - 1);
    const queries = [
      { name: "a rare word", text: rare },
      { name: "one letter", text: "w" },
      { name: "a word every thread has", text: "common" },
      { name: "an id prefix", text: (ids[Math.floor(ids.length / 2)] as string).slice(0, 12) },
      { name: "two words", text: `${word(3)} review` },
    ];
    const measured = [];
    for (const query of queries) {
      const samples: number[] = [];
      let matches = 0;
      let more = false;
      for (let run = 0; run < options.plan.runs + 2; run++) {
        const at = performance.now();
        const result = await refs.searchThreads({ text: query.text, limit: 30 });
        const elapsed = performance.now() - at;
        matches = result.total;
        more = result.more;
        if (run >= 2) samples.push(elapsed);
      }
      measured.push({ ...query, matches, more, time: summarize(samples) });
    }
    return { threads: options.plan.threads, indexMs, queries: measured } satisfies SearchResult;
  } finally {
    await refs.close();
  }
}

export function checkSearchTargets(result: SearchResult): TargetCheck[] {
  return result.queries.map((query) => ({
    target: `search ${query.name} on ${result.threads.toLocaleString("en-US")} threads (page of 30 and total) ≤ ${SEARCH_TARGET_MS} ms`,
    measured: `${query.time.medianMs} ms median, ${query.time.maxMs} ms max (${query.matches}${query.more ? "+" : ""} matches)`,
    met: query.time.medianMs <= SEARCH_TARGET_MS,
  }));
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { smoke: { type: "boolean", default: false } } });
  const folder = mkdtempSync(join(tmpdir(), "uwf-bench-search-"));
  try {
    const result = await measureSearch({
      folder,
      plan: values.smoke ? SEARCH_PLANS.smoke : SEARCH_PLANS.full,
      progress: (message) => console.error(`[bench] ${message}`),
    });
    console.log(JSON.stringify(result, null, 2));
    for (const check of checkSearchTargets(result)) {
      console.log(`${check.met ? "met" : "MISSED"}: ${check.target}: ${check.measured}`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
