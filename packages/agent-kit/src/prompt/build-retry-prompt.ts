import type { JsonSchemaObject } from "@uwf/protocol";
import { splitFrontmatter } from "../extract/split-frontmatter.ts";
import { buildOutputFormatSection } from "./build-output-format-section.ts";
import { fenceText } from "./fence-text.ts";

export interface BuildRetryPromptOptions {
  /** The rejected reply; its frontmatter is quoted beside the problem so the agent can fix it rather than redo the work. */
  previousReply?: string;
}

/** Characters of the rejected reply's frontmatter (or, without one, of its start) a retry prompt quotes (docs/agents.md). */
export const QUOTED_REPLY_CHARACTERS = 2_000;

/**
 * What the agent is told after an invalid reply: the exact problem, then the
 * expected format again. Meant to follow the original prompt (command agents
 * start afresh each time) or to be sent on its own to an agent that remembers.
 */
export function buildRetryPrompt(
  problem: string,
  schema: JsonSchemaObject | undefined,
  options: BuildRetryPromptOptions = {},
): string {
  const parts = ["# Your previous reply could not be used", `Problem: ${problem}`];
  if (options.previousReply !== undefined) parts.push(quoteRejectedReply(options.previousReply));
  parts.push("Reply again with your whole answer, starting with the YAML frontmatter described below.");
  parts.push(buildOutputFormatSection(schema, { headingLevel: 2 }));
  return `${parts.join("\n\n")}\n`;
}

/** The rejected reply's frontmatter as the agent wrote it, or the start of a reply that has none, cut to the quota. */
function quoteRejectedReply(reply: string): string {
  const split = splitFrontmatter(reply);
  const [label, text, info] = split.success
    ? ["The frontmatter of your reply was", `---\n${split.yaml.replace(/\n$/, "")}\n---`, "yaml"]
    : ["Your reply began (no frontmatter was found)", reply.trimEnd(), "text"];
  if (text.length <= QUOTED_REPLY_CHARACTERS) return `${label}:\n\n${fenceText(text, info)}`;
  const cut = `${text.slice(0, QUOTED_REPLY_CHARACTERS)}\n…`;
  return `${label} (its first ${QUOTED_REPLY_CHARACTERS} of ${text.length} characters):\n\n${fenceText(cut, info)}`;
}
