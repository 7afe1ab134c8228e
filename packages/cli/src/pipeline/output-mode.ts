import type { GlobalOptionValues } from "./global-option-values.ts";
import type { OutputMode } from "./print.ts";

/** Text, one JSON document (`--json`) or NDJSON events (`--jsonl`); both flags is a usage error. */
export async function outputMode(globals: GlobalOptionValues): Promise<OutputMode> {
  if (globals.json === true && globals.jsonl === true) {
    const { UsageError } = await import("../errors/usage-error.ts");
    throw new UsageError("--json and --jsonl: give one (a JSON document, or NDJSON events)");
  }
  return globals.jsonl === true ? "jsonl" : globals.json === true ? "json" : "text";
}
