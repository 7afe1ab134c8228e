import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadWorkflowFile, validateWorkflow } from "../../packages/workflow/src/index.ts";

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

export interface EnumValidationResult {
  values: number;
  /** Median time of `validateWorkflow` on the loaded workflow: the JSON-schema checks, YAML parsing apart. */
  validateMs: number;
}

/**
 * Times the checks of the workflow `writeEnumWorkflow` wrote, in-process, apart from parsing its YAML:
 * what issue 25 item 9 found quadratic (Ajv compared every pair of enum values). The first load warms
 * the schema checker, as any command that validates pays for it once.
 */
export function measureEnumValidation(file: string, runs: number): EnumValidationResult {
  const { workflow } = loadWorkflowFile(file);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const issues = validateWorkflow(workflow);
    samples.push(performance.now() - started);
    if (issues.length > 0) throw new Error(`${file}: ${JSON.stringify(issues)}`);
  }
  samples.sort((left, right) => left - right);
  return { values: ENUM_VALUES, validateMs: Math.round((samples[Math.floor(runs / 2)] ?? 0) * 10) / 10 };
}
