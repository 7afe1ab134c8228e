// The @uwf/eval entry: scoring threads, suites, reports and their rendering (see README.md). Above
// @uwf/engine, below @uwf/cli; it prints nothing and exits nothing.
export { renderEvalHtml } from "./render/render-eval-html.ts";
