/**
 * The index of the oldest step the prompt's history shows in full (DESIGN §5): on a role's later
 * visit, its own last step (everything since follows it); on its first visit, the first step. The
 * steps before it are only named, by number and role.
 */
export function firstShownStep(history: readonly { role: string }[], roleName: string): number {
  return Math.max(
    history.findLastIndex((step) => step.role === roleName),
    0,
  );
}
