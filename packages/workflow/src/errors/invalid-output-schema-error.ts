import { UwfError } from "@uwf/protocol";

/** A role's `frontmatter` that is not a JSON Schema ajv can compile. */
export class InvalidOutputSchemaError extends UwfError {
  static readonly code = "invalid-output-schema" as const;

  constructor(reason: string, cause?: unknown) {
    super(InvalidOutputSchemaError.code, `the role's frontmatter schema is not a valid JSON Schema: ${reason}`, {
      data: { reason },
      cause,
    });
    this.name = "InvalidOutputSchemaError";
  }
}
