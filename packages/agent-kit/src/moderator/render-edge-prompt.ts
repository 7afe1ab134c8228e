import { END, START } from "@uwf/protocol";
import { EdgePromptError } from "./edge-prompt-error.ts";
import { type EdgeTemplate, edgeTemplateEngine, messageOf, parseEdgeTemplate } from "./edge-template.ts";
import type { ModeratorHistory } from "./moderator-history.ts";
import { renderPlainSubstitution } from "./plain-substitution.ts";

export interface RenderEdgePromptOptions {
  /** The edge's prompt: its source text (plain substitutions render without liquidjs) or a parsed template. */
  template: string | EdgeTemplate;
  from: string;
  to: string;
  history: ModeratorHistory;
}

/**
 * What an edge prompt may read (DESIGN §2): at `$START`, `start` and `thread`; after a step,
 * that step's output fields plus `_body`, `start` and `thread` (these three win over a field
 * of the same name, so a template always means the same thing).
 */
export function edgePromptContext(from: string, history: ModeratorHistory): Record<string, unknown> {
  const base = { start: history.start, thread: history.thread };
  const last = history.steps.at(-1);
  if (from === START || last === undefined) return base;
  return { ...last.output, _body: last.body, ...base };
}

/** Renders an edge prompt, trimmed. An undefined variable, or an empty prompt to a role, is an `EdgePromptError`. */
export async function renderEdgePrompt(options: RenderEdgePromptOptions): Promise<string> {
  const { from, to, history } = options;
  let rendered: string;
  try {
    const context = edgePromptContext(from, history);
    const plain = typeof options.template === "string" ? renderPlainSubstitution(options.template, context) : undefined;
    if (plain !== undefined) rendered = plain;
    else {
      const template = typeof options.template === "string" ? parseEdgeTemplate(options.template) : options.template;
      rendered = await edgeTemplateEngine().render(template, context);
    }
  } catch (error) {
    throw new EdgePromptError(from, to, `cannot be rendered: ${messageOf(error)}`, { cause: error });
  }
  const prompt = rendered.trim();
  if (prompt === "" && to !== END) throw new EdgePromptError(from, to, "rendered empty; the next role needs a prompt");
  return prompt;
}
