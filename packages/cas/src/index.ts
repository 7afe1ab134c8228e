export { AddressPrefixNotFoundError } from "./address-prefix-not-found-error.ts";
export { AmbiguousAddressError } from "./ambiguous-address-error.ts";
export { canonicalizeJson, canonicalizeJsonBytes } from "./canonicalize-json.ts";
export { type CopyStoreOptions, copyStore } from "./copy-store.ts";
export { CorruptNodeError } from "./corrupt-node-error.ts";
export { createFileObjectStore } from "./create-file-object-store.ts";
export { createMemoryObjectStore } from "./create-memory-object-store.ts";
export { createMemoryRefStore } from "./create-memory-ref-store.ts";
export { createMemoryStore } from "./create-memory-store.ts";
export { createSqliteRefStore, type SqliteRefStore } from "./create-sqlite-ref-store.ts";
export { decodeAddress, encodeAddress } from "./encode-address.ts";
export { type FindLeaseCutoffOptions, findLeaseCutoff, LEASE_CLOCK_MARGIN_MS } from "./find-lease-cutoff.ts";
export { forEachConcurrently } from "./for-each-concurrently.ts";
export { GcRefusedError } from "./gc-refused-error.ts";
export { DEFAULT_GC_GRACE_MS, type GcStoreOptions, gcStore } from "./gc-store.ts";
export { addressOfNode, type HashedNode, hashBytes, hashNode } from "./hash-node.ts";
export { InvalidAddressError } from "./invalid-address-error.ts";
export { InvalidJsonValueError } from "./invalid-json-value-error.ts";
export { InvalidRecordError } from "./invalid-record-error.ts";
export { InvalidStoreUrlError } from "./invalid-store-url-error.ts";
export { isPostgresStoreUrl } from "./is-postgres-store-url.ts";
export { isProcessAlive, isProcessGroupAlive, readProcessStart } from "./is-process-alive.ts";
export { listStoreRoots } from "./list-store-roots.ts";
export { maskStoreUrl } from "./mask-store-url.ts";
export { NodeNotFoundError } from "./node-not-found-error.ts";
export { openFileStore, refDatabasePath } from "./open-file-store.ts";
export { type OpenPostgresStoreOptions, openPostgresStore } from "./open-postgres-store.ts";
export { type OpenRefDatabaseOptions, REF_SCHEMA_VERSION } from "./open-ref-database.ts";
export { isAddress, parseAddress } from "./parse-address.ts";
export { isAddressPrefix, MIN_ADDRESS_PREFIX, parseAddressPrefix } from "./parse-address-prefix.ts";
export { type ReadObject, readEveryObject } from "./read-every-object.ts";
export { findRefDatabaseDamage, setAsideRefDatabase } from "./ref-database-damage.ts";
export { RefStoreBusyError } from "./ref-store-busy-error.ts";
export { RefStoreDamagedError } from "./ref-store-damaged-error.ts";
export { resolveAddress } from "./resolve-address.ts";
export type {
  AcquireLeaseOptions,
  AcquireLeaseResult,
  ChainIndex,
  ChainIndexStep,
  ChainLink,
  ClaimedThread,
  ClaimThreadOptions,
  DeletedThread,
  LeaseAgent,
  ListThreadsQuery,
  ListThreadsResult,
  ObjectStore,
  PutManyOptions,
  RefStore,
  Store,
  TemporaryFileInfo,
  ThreadUpdate,
} from "./store.ts";
export { StoreRefusedError } from "./store-refused-error.ts";
export { StoreUnreachableError } from "./store-unreachable-error.ts";
export { ThreadExistsError } from "./thread-exists-error.ts";
export { verifyStore } from "./verify-store.ts";
export { type WalkNodesOptions, type WalkNodesResult, walkNodes } from "./walk-nodes.ts";
