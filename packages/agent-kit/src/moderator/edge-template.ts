import type { Liquid, Template } from "liquidjs";

export type EdgeTemplate = Template[];

let sharedEngine: Liquid | undefined;

/**
 * One Liquid engine for every edge prompt. Strict variables and filters make a typo an
 * error instead of an empty string; `lenientIf` still lets `{% if comments %}` and
 * `| default:` test an optional field. An empty in-memory template map means
 * `{% include %}` and `{% render %}` can never read files. Loaded on first use, not at
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
  });
  return sharedEngine;
}

/** Parses an edge prompt; throws liquidjs's error (with line and column inside the template) when it does not parse. */
export function parseEdgeTemplate(source: string): EdgeTemplate {
  try {
    return edgeTemplateEngine().parse(source);
  } catch (error) {
    if (/\$status/.test(source) && !/\[\s*['"]\$status['"]\s*\]/.test(source)) {
      // Liquid names cannot start with "$"; say how to reach the field instead of only "invalid value expression".
      throw new Error(`${messageOf(error)} (write {{ ['$status'] }} to use the $status field)`, { cause: error });
    }
    throw error;
  }
}

/** The variables a template reads from its context, each as its path of properties (`["start", "prompt"]`). */
export function edgeTemplateVariables(template: EdgeTemplate): string[][] {
  return edgeTemplateEngine()
    .globalVariableSegmentsSync(template)
    .map((segments) => segments.map((segment) => String(segment)));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
