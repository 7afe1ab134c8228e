import type { WorkflowNode } from "@uwf/protocol";
import { InvalidInputsError } from "../errors/invalid-inputs-error.ts";
import { validateOutputFields } from "../schema/validate-output-fields.ts";

/**
 * A thread's start inputs, checked against the workflow's `inputs:` JSON Schema, with the
 * schema's top-level `default`s filled in for inputs not given. A workflow that declares no
 * inputs takes any. Throws InvalidInputsError naming each input that does not fit.
 */
export function validateStartInputs(workflow: WorkflowNode, given: Record<string, unknown>): Record<string, unknown> {
  const schema = workflow.inputs;
  if (schema === undefined) return given;
  const inputs = { ...given };
  const properties = schema.properties;
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
    for (const [name, field] of Object.entries(properties)) {
      if (name in inputs || field === null || typeof field !== "object" || !("default" in field)) continue;
      inputs[name] = (field as { default: unknown }).default;
    }
  }
  const result = validateOutputFields(inputs, schema);
  if (!result.success) {
    const problem = result.problem.replaceAll('required field "', 'required input "').replaceAll('field "', 'input "');
    throw new InvalidInputsError(workflow.name, problem);
  }
  return inputs;
}
