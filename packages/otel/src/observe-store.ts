import type { Store, ThreadUpdate } from "@uwf/cas";
import type { Address, ThreadRecord } from "@uwf/protocol";

export interface StoreObserver {
  /** A thread's record was updated (its compare-and-swap succeeded). */
  onUpdate(store: Store, id: string, expectedHead: Address, update: ThreadUpdate): void;
  /** A thread was created. */
  onCreate(store: Store, record: ThreadRecord): void;
}

/**
 * The store, with its thread writes reported to `observer` once they succeed. Every way a step is
 * committed (a terminal's step, a worker, `tick`, the UI) advances a head through `updateThread`,
 * so watching the store covers them all without any of them knowing. Everything else passes through.
 */
export function observeStore(store: Store, observer: StoreObserver): Store {
  const refs = new Proxy(store.refs, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      if (key === "updateThread") {
        return async (id: string, expectedHead: Address, update: ThreadUpdate) => {
          const updated = await target.updateThread(id, expectedHead, update);
          if (updated) observer.onUpdate(observed, id, expectedHead, update);
          return updated;
        };
      }
      if (key === "createThread") {
        return async (record: ThreadRecord) => {
          await target.createThread(record);
          observer.onCreate(observed, record);
        };
      }
      if (key === "createThreads") {
        return async (records: readonly ThreadRecord[]) => {
          await target.createThreads(records);
          for (const record of records) observer.onCreate(observed, record);
        };
      }
      return value.bind(target);
    },
  });
  const observed: Store = new Proxy(store, {
    get(target, key) {
      if (key === "refs") return refs;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return observed;
}
