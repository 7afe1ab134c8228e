import type { ObjectStore } from "./objects/object-store.ts";
import type { RefStore } from "./refs/ref-store.ts";

/** One backend: objects plus refs. Every backend passes the shared conformance suite. */
export interface Store {
  objects: ObjectStore;
  refs: RefStore;
  close(): Promise<void>;
}
