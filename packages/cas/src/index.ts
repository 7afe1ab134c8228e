export { CorruptNodeError } from "./corrupt-node-error.ts";
export { InvalidAddressError } from "./invalid-address-error.ts";
export { NodeNotFoundError } from "./node-not-found-error.ts";
export type {
  AcquireLeaseOptions,
  AcquireLeaseResult,
  ListThreadsQuery,
  ListThreadsResult,
  ObjectStore,
  PutManyOptions,
  RefStore,
  Store,
  StoredObjectInfo,
  ThreadUpdate,
} from "./store.ts";
