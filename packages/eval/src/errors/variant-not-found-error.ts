import { UwfError } from "@uwf/protocol";

/**
 * `--baseline VARIANT` naming a variant the report does not have. Its code is `usage` (exit 2): the
 * command line is wrong; the message lists the variants there are.
 */
export class VariantNotFoundError extends UwfError<"usage"> {
  static override readonly code = "usage" as const;
  static override readonly name = "VariantNotFoundError";

  constructor(variant: string, variants: readonly (string | null)[]) {
    const named = variants.filter((name): name is string => name !== null);
    super(
      `no variant ${JSON.stringify(variant)} in the report; ${
        named.length === 0
          ? "its samples name no variant"
          : `its variants: ${named.map((name) => JSON.stringify(name)).join(", ")}`
      }`,
      { data: { variant, variants: [...variants] } },
    );
  }
}
