/**
 * Runs `task` on every item, at most `limit` at a time, in input order of starting. After the
 * first failure no new task starts; the tasks already running are awaited, so nothing is left
 * in flight when it returns, and then the first failure is thrown.
 */
export async function forEachConcurrently<Item>(
  items: readonly Item[],
  limit: number,
  task: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  async function work(): Promise<void> {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as Item;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  const workers: Promise<void>[] = [];
  for (let count = Math.min(limit, items.length); count > 0; count--) workers.push(work());
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
}
