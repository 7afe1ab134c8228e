import { UwfError } from "@uwf/protocol";

/**
 * The store's server cannot be reached, or went away during a call: refused or timed-out
 * connections, a server shutting down or restarting, too many connections. A call that failed so
 * changed nothing it did not finish (each ref update is one transaction): retry later (exit 75).
 */
export class StoreUnreachableError extends UwfError<"store-unreachable"> {
  static override readonly code = "store-unreachable" as const;
  static override readonly name = "StoreUnreachableError";

  constructor(url: string, detail: string, cause?: unknown) {
    super(`the store ${url} cannot be reached: ${detail}; retry when the server is up`, {
      data: { url, detail },
      cause,
    });
  }
}
