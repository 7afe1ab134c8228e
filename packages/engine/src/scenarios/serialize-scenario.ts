import type { ScenarioDocument } from "@uwf/protocol";
import { formatYaml } from "@uwf/workflow";

/**
 * A scenario document as a file's text: JSON (which the scripted agent parses fastest, for long
 * scenarios) or YAML (for reading and editing by hand). Either ends with a newline.
 */
export function serializeScenario(document: ScenarioDocument, format: "json" | "yaml"): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  const text = formatYaml(document);
  return text.endsWith("\n") ? text : `${text}\n`;
}
