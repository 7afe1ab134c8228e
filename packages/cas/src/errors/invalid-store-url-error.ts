import { UwfError } from "@uwf/protocol";

/** A store URL uwf cannot use: another scheme, or a `schema` that is not a plain SQL name. Shown with its password masked. */
export class InvalidStoreUrlError extends UwfError {
  static readonly code = "invalid-store-url" as const;

  constructor(url: string, problem: string) {
    super(InvalidStoreUrlError.code, `store URL ${url}: ${problem}`, { data: { url, problem } });
    this.name = "InvalidStoreUrlError";
  }
}
