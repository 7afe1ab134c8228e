import type { ExtractWithModelOptions, ExtractWithModelResult } from "./extract-with-model.ts";

/**
 * `extractWithModel`, loaded on first use: LLM extraction runs only when a reply is still invalid after the
 * retries and `extractionModel` is set, so a step does not load the model clients it brings (issue 43).
 */
export async function extractWithModel(options: ExtractWithModelOptions): Promise<ExtractWithModelResult> {
  const { extractWithModel: extract } = await import("./extract-with-model.ts");
  return extract(options);
}
