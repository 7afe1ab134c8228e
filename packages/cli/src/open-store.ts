import { findRefDatabaseDamage, openFileStore, refDatabasePath, type Store, setAsideRefDatabase } from "@uwf/cas";
import { UsageError } from "./errors/usage-error.ts";

/** The default embedded store, or the backend `UWF_STORE` names. */
export async function openStoreFromEnvironment(home: string, env: NodeJS.ProcessEnv): Promise<Store> {
  if (usesFileStore(env)) return openFileStore(home);
  throw new UsageError(`UWF_STORE=${env.UWF_STORE}: unsupported store (only the embedded file store is available)`);
}

/**
 * For `uwf cas recover`, before the store is opened: when the embedded store's ref database is
 * damaged, moves it aside (kept, never overwritten), so the store opens with an empty one. Returns
 * where it went, or null when it is sound or absent.
 */
export function setAsideDamagedRefStore(home: string, env: NodeJS.ProcessEnv, now: Date): string | null {
  if (!usesFileStore(env)) return null;
  const path = refDatabasePath(home);
  return findRefDatabaseDamage(path) === null ? null : setAsideRefDatabase(path, now);
}

function usesFileStore(env: NodeJS.ProcessEnv): boolean {
  const url = env.UWF_STORE;
  return url === undefined || url === "" || url === "file";
}
