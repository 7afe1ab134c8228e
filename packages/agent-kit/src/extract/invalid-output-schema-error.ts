import { UwfError } from "@uwf/protocol";

/** A role's `frontmatter` that is not a JSON Schema ajv can compile. */
export class InvalidOutputSchemaError extends UwfError {
  constructor(reason: string, cause?: unknown) {
    super("invalid-output-schema", `the role's frontmatter schema is not a valid JSON Schema: ${reason}`, {
      data: { reason },
      cause,
    });
    this.name = "InvalidOutputSchemaError";
  }
}
