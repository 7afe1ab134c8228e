import { messageOf } from "@uwf/protocol";
import type { Liquid, Template } from "liquidjs";

export type EdgeTemplate = Template[];

/**
 * How long rendering one edge prompt may take (liquidjs's `renderLimit`, checked as it renders
 * each piece of the template). Honest prompts render in microseconds; a runaway loop stops here,
 * well inside the step's lease.
 */
export const EDGE_PROMPT_RENDER_LIMIT_MS = 2000;

/**
 * What rendering one edge prompt may allocate (liquidjs's `memoryLimit`): the characters that
 * filters build plus the items of ranges and lists they make, 10 million in all. An honest prompt
 * uses a few thousand; `(1..30000000)` is refused before it is built.
 */
export const EDGE_PROMPT_MEMORY_LIMIT = 10_000_000;

let sharedEngine: Liquid | undefined;

/**
 * One Liquid engine for every edge prompt. Strict variables and filters make a typo an
 * error instead of an empty string; `lenientIf` still lets `{% if comments %}` and
 * `| default:` test an optional field. An empty in-memory template map means
 * `{% include %}` and `{% render %}` can never read files. Each render has a time and a memory
 * limit, so a runaway template fails its step instead of hanging it. Loaded on first use, not at
 * import, because liquidjs costs tens of milliseconds that `uwf --version` should not pay.
 */
export function edgeTemplateEngine(): Liquid {
  const { Liquid: LiquidClass } = require("liquidjs") as typeof import("liquidjs");
  sharedEngine ??= new LiquidClass({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    lenientIf: true,
    templates: {},
    // Without a locale liquidjs asks Intl for the default one, which costs ~20 ms of every step's start-up.
    locale: "en-US",
    renderLimit: EDGE_PROMPT_RENDER_LIMIT_MS,
    memoryLimit: EDGE_PROMPT_MEMORY_LIMIT,
  });
  return sharedEngine;
}

export type ParsedEdgeTemplate =
  | { success: true; value: EdgeTemplate }
  | {
      success: false;
      /** liquidjs's message (with line and column inside the template), and how to write `$status` when that is the cause. */
      problem: string;
      /** liquidjs's error. */
      cause: unknown;
    };

/** Parses an edge prompt; a template that does not parse is a result saying why, which each caller reports where it is. */
export function safeParseEdgeTemplate(source: string): ParsedEdgeTemplate {
  try {
    return { success: true, value: edgeTemplateEngine().parse(source) };
  } catch (error) {
    // Liquid names cannot start with "$"; say how to reach the field instead of only "invalid value expression".
    const statusHint =
      /\$status/.test(source) && !/\[\s*['"]\$status['"]\s*\]/.test(source)
        ? " (write {{ ['$status'] }} to use the $status field)"
        : "";
    return { success: false, problem: `${messageOf(error)}${statusHint}`, cause: error };
  }
}

/** The variables a template reads from its context, each as its path of properties (`["start", "prompt"]`). */
export function edgeTemplateVariables(template: EdgeTemplate): string[][] {
  return edgeTemplateEngine()
    .globalVariableSegmentsSync(template)
    .map((segments) => segments.map((segment) => String(segment)));
}
