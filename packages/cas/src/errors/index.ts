// Every error class of @uwf/cas, one file each.
export { AddressPrefixNotFoundError } from "./address-prefix-not-found-error.ts";
export { AmbiguousAddressError } from "./ambiguous-address-error.ts";
export { CorruptNodeError } from "./corrupt-node-error.ts";
export { EvalReportExistsError } from "./eval-report-exists-error.ts";
export { GcRefusedError } from "./gc-refused-error.ts";
export { InvalidAddressError, type InvalidAddressErrorOptions } from "./invalid-address-error.ts";
export { InvalidJsonValueError } from "./invalid-json-value-error.ts";
export { InvalidRecordError } from "./invalid-record-error.ts";
export { InvalidStoreUrlError } from "./invalid-store-url-error.ts";
export { NodeNotFoundError } from "./node-not-found-error.ts";
export { RefStoreBusyError } from "./ref-store-busy-error.ts";
export { RefStoreDamagedError } from "./ref-store-damaged-error.ts";
export { RefStoreUnavailableError } from "./ref-store-unavailable-error.ts";
export { ScheduleExistsError } from "./schedule-exists-error.ts";
export { StoreRefusedError } from "./store-refused-error.ts";
export { StoreTooNewError } from "./store-too-new-error.ts";
export { StoreUnreachableError } from "./store-unreachable-error.ts";
export { ThreadExistsError } from "./thread-exists-error.ts";
