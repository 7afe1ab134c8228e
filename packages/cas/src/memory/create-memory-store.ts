import type { Store } from "../store.ts";
import { createMemoryObjectStore } from "./create-memory-object-store.ts";
import { createMemoryRefStore } from "./create-memory-ref-store.ts";

/** A whole store in memory: for unit tests, and for commands that must not touch a home. */
export function createMemoryStore(): Store {
  return { objects: createMemoryObjectStore(), refs: createMemoryRefStore(), close: async () => {} };
}
