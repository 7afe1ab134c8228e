import type { Store } from "@uwf/cas";
import { openStoreFromEnvironment } from "../../src/home/open-store.ts";

/**
 * Opens the home's store as uwf would with `env` (`UWF_STORE` naming a PostgreSQL store, or the home's
 * own), beside the uwf processes running on it, hands it to `read`, and closes it.
 */
export async function readHomeStore<Result>(
  home: string,
  env: Record<string, string>,
  read: (store: Store) => Promise<Result>,
): Promise<Result> {
  const store = await openStoreFromEnvironment(home, env);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}
