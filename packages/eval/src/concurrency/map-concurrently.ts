/**
 * `map` over `items` with at most `concurrency` calls in flight, results in input order. The first
 * error rejects the whole (the calls already started run on, their results dropped); an aborted
 * `signal` starts no more calls and rejects with its reason.
 */
export async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  map: (item: Item, index: number) => Promise<Result>,
  signal?: AbortSignal,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      try {
        results[index] = await map(items[index] as Item, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
