import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createSqliteRefStore } from "../sqlite/create-sqlite-ref-store.ts";
import type { OpenRefDatabaseOptions } from "../sqlite/open-ref-database.ts";
import type { Store } from "../store.ts";
import { createFileObjectStore } from "./create-file-object-store.ts";

/** Where the default backend keeps a home's ref store. */
export function refDatabasePath(home: string): string {
  return join(home, "refs.db");
}

/**
 * The default, embedded backend in a uwf home: objects under `home/objects`, refs in `home/refs.db`.
 * `readOnly` opens a home that cannot be written for reading, creating nothing.
 */
export async function openFileStore(home: string, options: OpenRefDatabaseOptions = {}): Promise<Store> {
  const objectsRoot = join(home, "objects");
  if (options.readOnly !== true) mkdirSync(objectsRoot, { recursive: true });
  const refs = createSqliteRefStore(refDatabasePath(home), options);
  return { objects: createFileObjectStore(objectsRoot), refs, close: () => refs.close() };
}
