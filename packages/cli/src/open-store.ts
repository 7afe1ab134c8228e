import { existsSync, mkdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import {
  createMemoryStore,
  findRefDatabaseDamage,
  openFileStore,
  refDatabasePath,
  type Store,
  setAsideRefDatabase,
} from "@uwf/cas";
import { UsageError } from "./errors/usage-error.ts";

export interface OpenStoreOptions {
  /**
   * Whether the command writes: only then is a missing home created. A read-only command finds a
   * missing home, or a home nothing was recorded in yet, empty, and creates nothing.
   */
  create: boolean;
  /** Told when a read-only command finds no home at all: the store reads as empty. */
  onMissingHome?(home: string): void;
}

/** The default embedded store, or the backend `UWF_STORE` names. */
export async function openStoreFromEnvironment(
  home: string,
  env: NodeJS.ProcessEnv,
  options: OpenStoreOptions = { create: true },
): Promise<Store> {
  if (!usesFileStore(env)) {
    throw new UsageError(`UWF_STORE=${env.UWF_STORE}: unsupported store (only the embedded file store is available)`);
  }
  const stats = homeStats(home);
  if (options.create) mkdirSync(home, { recursive: true });
  else if (stats === undefined) {
    options.onMissingHome?.(home);
    return createMemoryStore();
  } else if (!existsSync(join(home, "objects")) && !existsSync(refDatabasePath(home))) return createMemoryStore();
  return openFileStore(home);
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

/** The home's stats, undefined when it does not exist; a usage error when it is not a directory. */
function homeStats(home: string): Stats | undefined {
  let stats: Stats | undefined;
  try {
    stats = statSync(home, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
    throw new UsageError(`the uwf home ${home} is not a directory (a file is on its path)`, { home });
  }
  if (stats !== undefined && !stats.isDirectory()) {
    throw new UsageError(`the uwf home ${home} is not a directory`, { home });
  }
  return stats;
}

function usesFileStore(env: NodeJS.ProcessEnv): boolean {
  const url = env.UWF_STORE;
  return url === undefined || url === "" || url === "file";
}
