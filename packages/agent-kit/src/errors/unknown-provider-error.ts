import { UwfError } from "@uwf/protocol";

/** A model in config.yaml names a provider that `providers` does not define. */
export class UnknownProviderError extends UwfError<"unknown-provider"> {
  static override readonly code = "unknown-provider" as const;
  static override readonly name = "UnknownProviderError";

  constructor(provider: string, model: string, known: string[]) {
    super(
      `model "${model}" uses provider "${provider}", which config.yaml does not define under providers` +
        (known.length === 0 ? "" : ` (defined: ${known.join(", ")})`) +
        `; add it with: uwf config set providers.${provider}.baseUrl URL`,
      { data: { provider, model, known } },
    );
  }
}
