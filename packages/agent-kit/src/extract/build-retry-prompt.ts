import type { JsonSchemaObject } from "@uwf/protocol";
import { buildOutputFormatSection } from "../prompt/build-output-format-section.ts";
import { fenceText } from "../prompt/fence-text.ts";

export interface BuildRetryPromptOptions {
  /** The rejected reply; its start is quoted so the agent can fix it rather than redo the work. */
  previousReply?: string;
}

const QUOTED_REPLY_CHARACTERS = 2_000;

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
  const parts = [
    "# Your previous reply could not be used",
    `Problem: ${problem}`,
    "Reply again with your whole answer, starting with the YAML frontmatter described below.",
  ];
  if (options.previousReply !== undefined) {
    const reply = options.previousReply;
    const shown = reply.length > QUOTED_REPLY_CHARACTERS ? `${reply.slice(0, QUOTED_REPLY_CHARACTERS)}\n…` : reply;
    const label = reply.length > QUOTED_REPLY_CHARACTERS ? `Your previous reply began:` : "Your previous reply was:";
    parts.push(`${label}\n\n${fenceText(shown, "text")}`);
  }
  parts.push(buildOutputFormatSection(schema, { headingLevel: 2 }));
  return `${parts.join("\n\n")}\n`;
}
