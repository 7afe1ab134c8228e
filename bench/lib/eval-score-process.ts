/**
 * What `uwf eval --workflow loop --status ended --assert …` will run, as one cold process: open the
 * store of the home given, list the threads, load their views and score them with the benchmark's three
 * JSONata assertions. Prints `{ samples, passed }`.
 *
 *   bun bench/lib/eval-score-process.ts HOME
 */
import { openFileStore } from "../../packages/cas/src/index.ts";
import { loadThreadViews, parseAssertionArguments, scoreThreads } from "../../packages/eval/src/index.ts";
import { EVAL_ASSERTIONS } from "./eval-benchmarks.ts";

const home = process.argv[2];
if (home === undefined) throw new Error("usage: bun bench/lib/eval-score-process.ts HOME");
const assertions = parseAssertionArguments(EVAL_ASSERTIONS);
const store = await openFileStore(home);
try {
  const { threads } = await store.refs.listThreads({ workflow: "loop", status: "ended" });
  const views = await loadThreadViews(store, threads, { bodies: false });
  const samples = await scoreThreads({ views, assertions, cwd: process.cwd() });
  const passed = samples.filter((sample) => sample.verdict === "passed").length;
  console.log(JSON.stringify({ samples: samples.length, passed }));
} finally {
  await store.close();
}
