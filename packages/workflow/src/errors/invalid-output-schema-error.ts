import { UwfError } from "@uwf/protocol";

/** A role's `frontmatter` that is not a JSON Schema ajv can compile. */
export class InvalidOutputSchemaError extends UwfError<"invalid-output-schema"> {
  static override readonly code = "invalid-output-schema" as const;
  static override readonly name = "InvalidOutputSchemaError";

  constructor(reason: string, cause?: unknown) {
    super(`the role's frontmatter schema is not a valid JSON Schema: ${reason}`, {
      data: { reason },
      cause,
    });
  }
}
