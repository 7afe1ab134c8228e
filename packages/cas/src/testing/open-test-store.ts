import { openFileStore } from "../file/open-file-store.ts";
import { createMemoryStore } from "../memory/create-memory-store.ts";
import { openPostgresStore } from "../postgres/open-postgres-store.ts";
import type { StoreFixture } from "./conformance-suite.ts";
import { startTestPostgres } from "./start-test-postgres.ts";
import { createTemporaryDirectory } from "./temporary-directory.ts";

/** The backends a test can ask `openTestStore` for. */
export type TestStoreBackend = "memory" | "file" | "postgres";

/** A fresh, empty store of one backend, and its cleanup; `location` is the file store's home or the PostgreSQL store's URL. */
export interface TestStore extends StoreFixture {
  /** The file store's home, the PostgreSQL store's URL; null for the memory store. */
  location: string | null;
}

/**
 * A fresh, empty store for one test: in memory; files + SQLite in a temp home that `cleanup`
 * removes (after closing the store); or a schema of its own on the test PostgreSQL server.
 */
export async function openTestStore(backend: TestStoreBackend): Promise<TestStore> {
  if (backend === "memory") return { store: createMemoryStore(), location: null, cleanup: async () => {} };
  if (backend === "file") {
    const home = createTemporaryDirectory();
    const store = await openFileStore(home.path);
    const cleanup = async () => {
      await store.close();
      home.remove();
    };
    return { store, location: home.path, cleanup, openAgain: () => openFileStore(home.path) };
  }
  const url = (await startTestPostgres()).newStoreUrl();
  const store = await openPostgresStore(url);
  return { store, location: url, cleanup: () => store.close(), openAgain: () => openPostgresStore(url) };
}
