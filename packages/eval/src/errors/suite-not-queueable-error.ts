import { UwfError } from "@uwf/protocol";

/**
 * A suite whose variants set an agent, a model or config, asked to run on workers (`queue`): workers
 * step with their own config and agents, so they could not honour the variants. A usage error.
 */
export class SuiteNotQueueableError extends UwfError<"usage"> {
  static override readonly code = "usage" as const;
  static override readonly name = "SuiteNotQueueableError";

  constructor(file: string, variants: string[]) {
    super(
      `suite ${file} cannot be queued for workers: variant ${variants.join(", ")} sets an agent, a model or config, which workers (stepping with their own config) would not honour; run it in this process instead`,
      { data: { file, variants } },
    );
  }
}
