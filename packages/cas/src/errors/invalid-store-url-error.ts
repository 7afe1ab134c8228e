import { UwfError } from "@uwf/protocol";

/** A store URL uwf cannot use: another scheme, or a `schema` that is not a plain SQL name. Shown with its password masked. */
export class InvalidStoreUrlError extends UwfError<"invalid-store-url"> {
  static override readonly code = "invalid-store-url" as const;
  static override readonly name = "InvalidStoreUrlError";

  constructor(url: string, problem: string) {
    super(`store URL ${url}: ${problem}`, { data: { url, problem } });
  }
}
