/**
 * The edge prompt of the step that answers a role's suspension (`uwf resume T -p ANSWER`): the role is
 * told its own reason and the human's answer. Built and read here only, so `uwf read` can show the
 * answer as the human's without guessing at the text.
 */
const QUESTION_PREFIX = "You suspended this thread: ";
const ANSWER_SEPARATOR = "\n\nThe user's answer:\n";

const TYPED_SEPARATOR = "\n\nThe person's answer to your question, as the fields of your answer schema:\n";

export function answeredSuspensionPrompt(reason: string, answer: string): string {
  return `${QUESTION_PREFIX}${reason}${ANSWER_SEPARATOR}${answer}`;
}

/** The edge prompt of the step that answers a typed suspension (`uwf resume --answer`): the answer's fields as a YAML block. */
export function answeredTypedSuspensionPrompt(reason: string, yaml: string): string {
  return `${QUESTION_PREFIX}${reason}${TYPED_SEPARATOR}\n\`\`\`yaml\n${yaml.trimEnd()}\n\`\`\``;
}

/** The reason and answer in an edge prompt `answeredSuspensionPrompt` made; null for any other prompt. */
export function readAnsweredSuspension(edgePrompt: string): { reason: string; answer: string } | null {
  if (!edgePrompt.startsWith(QUESTION_PREFIX)) return null;
  const typed = edgePrompt.indexOf(TYPED_SEPARATOR);
  if (typed !== -1) {
    const block = edgePrompt.slice(typed + TYPED_SEPARATOR.length).trim();
    return {
      reason: edgePrompt.slice(QUESTION_PREFIX.length, typed),
      answer: block.replace(/^```yaml\n/, "").replace(/\n```$/, ""),
    };
  }
  const separator = edgePrompt.indexOf(ANSWER_SEPARATOR);
  if (separator === -1) return null;
  return {
    reason: edgePrompt.slice(QUESTION_PREFIX.length, separator),
    answer: edgePrompt.slice(separator + ANSWER_SEPARATOR.length),
  };
}
