import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_SCHEMA_REVISION, type Config } from "@uwf/protocol";
import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";

/**
 * Parsed `config.yaml`s, cached in the home's `cache/` by the file's exact text and the schema's
 * revision: parsing YAML and checking it with zod costs more than the rest of a step's set-up,
 * and a step runs as a new process every time. Derived data only: a missing, stale or damaged
 * cache is a miss, and `cache/` can be deleted at any time.
 */
interface CachedConfig {
  revision: number;
  source: string;
  config: Config;
}

export function configCacheFile(home: string): string {
  return join(home, "cache", "config.json");
}

/** The config parsed earlier from exactly this text, or undefined. */
export function readCachedConfig(home: string, text: string): Config | undefined {
  let cached: Partial<CachedConfig>;
  try {
    const read = safeReadBoundedFile(configCacheFile(home), { maxBytes: MAX_CONFIG_BYTES });
    if (!read.success) return undefined;
    cached = JSON.parse(read.value) as Partial<CachedConfig>;
  } catch {
    return undefined;
  }
  const fresh = cached.revision === CONFIG_SCHEMA_REVISION && cached.source === sourceKey(text);
  return fresh && typeof cached.config === "object" && cached.config !== null ? cached.config : undefined;
}

/** Best effort: a home that cannot be written to just parses its config every time. */
export function cacheConfig(home: string, text: string, config: Config): void {
  const file = configCacheFile(home);
  const entry: CachedConfig = { revision: CONFIG_SCHEMA_REVISION, source: sourceKey(text), config };
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(home, "cache"), { recursive: true });
    // Private like the key file: a config may name things its owner would rather not share.
    writeFileSync(temporary, JSON.stringify(entry), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // Read-only home or full disk: the cache is an optimisation only.
  }
}

function sourceKey(text: string): string {
  return `${text.length}:${Bun.hash.xxHash64(text).toString(16)}`;
}
