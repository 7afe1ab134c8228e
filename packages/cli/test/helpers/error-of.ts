import { type ErrorResult, errorResultSchema } from "@uwf/protocol";

/** The error a `--json` run reported: the last line of its stderr, `{"error":{"code","message","data"}}`. */
export function errorOf(stderr: string): ErrorResult["error"] {
  return errorResultSchema.parse(JSON.parse(stderr.trim().split("\n").at(-1) ?? "{}")).error;
}
