/**
 * The edge prompt of the step that answers a role's suspension (`uwf resume T -p ANSWER`): the role is
 * told its own reason and the human's answer. Built and read here only, so `uwf read` can show the
 * answer as the human's without guessing at the text.
 */
const QUESTION_PREFIX = "You suspended this thread: ";
const ANSWER_SEPARATOR = "\n\nThe user's answer:\n";

export function answeredSuspensionPrompt(reason: string, answer: string): string {
  return `${QUESTION_PREFIX}${reason}${ANSWER_SEPARATOR}${answer}`;
}

/** The reason and answer in an edge prompt `answeredSuspensionPrompt` made; null for any other prompt. */
export function readAnsweredSuspension(edgePrompt: string): { reason: string; answer: string } | null {
  if (!edgePrompt.startsWith(QUESTION_PREFIX)) return null;
  const separator = edgePrompt.indexOf(ANSWER_SEPARATOR);
  if (separator === -1) return null;
  return {
    reason: edgePrompt.slice(QUESTION_PREFIX.length, separator),
    answer: edgePrompt.slice(separator + ANSWER_SEPARATOR.length),
  };
}
