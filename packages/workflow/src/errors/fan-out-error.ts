import { UwfError } from "@uwf/protocol";

/**
 * A reply routed to a fan-out whose branches cannot be planned from it: its `foreach` expression did
 * not give a list (or failed), or a branch's prompt or inputs cannot be rendered, or a `role:`
 * branch's prompt rendered empty. A routing problem: the reply goes back to its agent, as when no edge holds.
 */
export class FanOutError extends UwfError<"fan-out-failed"> {
  static override readonly code = "fan-out-failed" as const;
  static override readonly name = "FanOutError";

  /** `field`: where in the edge the problem is (`foreach`, `parallel.security.prompt`); `branch`: the branch's key, null for `foreach` itself. */
  constructor(
    from: string,
    edge: number,
    field: string,
    branch: string | null,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`the fan-out from ${from} (edge ${edge}) cannot plan its branches: ${field} ${reason}`, {
      data: { from, edge, field, branch, reason },
      cause: options.cause,
    });
  }
}
