import { existsSync, mkdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import {
  createMemoryStore,
  findRefDatabaseDamage,
  InvalidStoreUrlError,
  isPostgresStoreUrl,
  maskStoreUrl,
  openFileStore,
  openPostgresStore,
  refDatabasePath,
  type Store,
  setAsideRefDatabase,
} from "@uwf/cas";
import { isUwfError } from "@uwf/protocol";
import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { UsageError } from "../errors/usage-error.ts";

export interface OpenStoreOptions {
  /**
   * Whether the command writes: only then is a missing home created. A read-only command finds a
   * missing home, or a home nothing was recorded in yet, empty, and creates nothing.
   */
  create: boolean;
  /** Told when a read-only command finds no home at all: the store reads as empty. */
  onMissingHome?(home: string): void;
  /**
   * Told when a read-only command finds a home it cannot write (a read-only file system or folder,
   * a full disk): the store is then opened for reading only, and `reason` says why.
   */
  onReadOnlyHome?(home: string, reason: string): void;
  /** `--store URL`, which beats `UWF_STORE` and `store:` in config. */
  storeFlag?: string | undefined;
}

/**
 * The store a command uses: the PostgreSQL server that `--store`, else `UWF_STORE`, else `store:` in
 * the home's config names, or else (and for `file`) the home's embedded files and SQLite.
 */
export async function openStoreFromEnvironment(
  home: string,
  env: NodeJS.ProcessEnv,
  options: OpenStoreOptions = { create: true },
): Promise<Store> {
  const url = await chooseStoreUrl(home, env, options.storeFlag);
  if (url !== null) return openPostgresStore(url);
  const stats = homeStats(home);
  if (options.create) mkdirSync(home, { recursive: true });
  else if (stats === undefined) {
    options.onMissingHome?.(home);
    return createMemoryStore();
  } else if (!existsSync(join(home, "objects")) && !existsSync(refDatabasePath(home))) return createMemoryStore();
  if (options.create) return openFileStore(home);
  return openFileStoreForReading(home, options);
}

/**
 * A home's store for a command that only reads: opened as usual, or, when the ref database cannot
 * be opened for writing (it must be, to share its WAL), opened read-only instead, with a word.
 */
async function openFileStoreForReading(home: string, options: OpenStoreOptions): Promise<Store> {
  try {
    return await openFileStore(home);
  } catch (error) {
    if (!isUwfError(error) || error.code !== "ref-store-unavailable") throw error;
    // Not readable either: that error says why (no such file, a WAL it cannot share, an old schema).
    const store = await openFileStore(home, { readOnly: true });
    options.onReadOnlyHome?.(home, `${String(error.data.detail)} (${String(error.data.sqliteCode)})`);
    return store;
  }
}

/**
 * The store a location names, for commands that work on two (`uwf store copy`): `file`, the home's
 * embedded store, or a PostgreSQL URL. Without `create`, a home with no store in it is a usage error
 * rather than an empty store, so a mistyped home is not copied as nothing.
 */
export async function openStoreAt(home: string, location: string, options: { create: boolean }): Promise<Store> {
  if (location !== "file") {
    if (!isPostgresStoreUrl(location)) {
      throw new InvalidStoreUrlError(
        maskStoreUrl(location),
        "unsupported store: give postgres://USER:PASSWORD@HOST/DATABASE, or file",
      );
    }
    return openPostgresStore(location);
  }
  const stats = homeStats(home);
  if (options.create) mkdirSync(home, { recursive: true });
  else if (stats === undefined || (!existsSync(join(home, "objects")) && !existsSync(refDatabasePath(home)))) {
    throw new UsageError(`no uwf store in ${home}: nothing to copy (set UWF_HOME or run in a project with .uwf/)`, {
      home,
    });
  }
  return openFileStore(home);
}

/**
 * For `uwf cas recover`, before the store is opened: when the embedded store's ref database is
 * damaged, moves it aside (kept, never overwritten), so the store opens with an empty one. Returns
 * where it went, or null when it is sound or absent.
 */
export async function setAsideDamagedRefStore(
  home: string,
  env: NodeJS.ProcessEnv,
  now: Date,
  storeFlag?: string,
): Promise<string | null> {
  // A server's tables are the server's to keep sound; there is no file to move aside.
  if ((await chooseStoreUrl(home, env, storeFlag)) !== null) return null;
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

/**
 * The PostgreSQL URL the command should use, or null for the embedded file store: `--store`, else
 * `UWF_STORE`, else `store:` in config.yaml. The config is parsed only when its text sets `store:`,
 * so commands on the default store pay no more than one small file read for it.
 */
async function chooseStoreUrl(home: string, env: NodeJS.ProcessEnv, flag: string | undefined): Promise<string | null> {
  const given = [flag, env.UWF_STORE].find((value) => value !== undefined && value !== "");
  const url = given ?? (await configuredStore(home));
  if (url === undefined || url === "file") return null;
  if (isPostgresStoreUrl(url)) return url;
  throw new InvalidStoreUrlError(
    maskStoreUrl(url),
    "unsupported store: give postgres://USER:PASSWORD@HOST/DATABASE, or file",
  );
}

async function configuredStore(home: string): Promise<string | undefined> {
  // Bounded and regular files only: every command comes here, and a config.yaml linked to /dev/zero hung them all.
  const read = safeReadBoundedFile(join(home, "config.yaml"), { maxBytes: MAX_CONFIG_BYTES });
  // No config (or none readable): loading it would say so where it matters.
  if (!read.success) return undefined;
  if (!/^store\s*:/m.test(read.value)) return undefined;
  const { loadConfig } = await import("./load-home-config.ts");
  return (await loadConfig(home)).store;
}
