let names: readonly string[] | undefined;

/**
 * The `format` values the run-time check of a reply (@cfworker/json-schema, in validate-output-fields.ts)
 * enforces, read from its own table. A schema may use these and no others: any other format would be
 * silently unchecked at run time, so the loader rejects it.
 */
export function enforcedFormats(): readonly string[] {
  names ??= Object.keys((require("@cfworker/json-schema") as typeof import("@cfworker/json-schema")).format);
  return names;
}
