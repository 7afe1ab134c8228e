/**
 * The index of the oldest step the prompt of an agent continuing its conversation shows in full
 * (DESIGN §5, sight): the one after the role's last visit, since the conversation holds everything
 * up to that visit (its own reply included); on the role's first visit, the first step. The steps
 * before it are only named, by number and role. Agents that keep no conversation are shown every step.
 */
export function firstShownStep(history: readonly { role: string }[], roleName: string): number {
  return history.findLastIndex((step) => step.role === roleName) + 1;
}
