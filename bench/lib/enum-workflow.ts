import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Issue 25 item 9: the values of the large enum `uwf workflow validate` must check within 1 s. */
const ENUM_VALUES = 100_000;

/**
 * Writes `big-enum.yaml` into `directory`: one role whose one field takes one of ENUM_VALUES short values,
 * about 0.8 MB, under the 1 MiB workflow limit. Checking such a schema used to compare every pair of values.
 */
export function writeEnumWorkflow(directory: string): string {
  const values = Array.from({ length: ENUM_VALUES }, (_, index) => `v${index}`).join(", ");
  const file = join(directory, "big-enum.yaml");
  writeFileSync(
    file,
    [
      "name: big-enum",
      "description: One field with a very large enum (the benchmark of issue 25 item 9)",
      "roles:",
      "  picker:",
      "    goal: You pick one value.",
      "    frontmatter:",
      "      type: object",
      `      properties: { pick: { type: string, enum: [${values}] } }`,
      "      required: [pick]",
      "graph:",
      '  $START: [{ role: picker, prompt: "Pick one." }]',
      "  picker: [{ role: $END }]",
      "",
    ].join("\n"),
  );
  return file;
}
