import { z } from "zod";

/** `uwf version`. */
export const versionResultSchema = z.object({
  version: z.string(),
  /** The Bun runtime uwf runs on. */
  bun: z.string(),
  /** The ref store's schema version (`refs.db`): a uwf refuses a store written with a newer one. */
  storeSchemaVersion: z.number().int().positive(),
});
export type VersionResult = z.infer<typeof versionResultSchema>;

/** `uwf help exit-codes`, `uwf help json`. */
export const helpTopicResultSchema = z.object({ topic: z.string(), text: z.string() });
export type HelpTopicResult = z.infer<typeof helpTopicResultSchema>;

/** `uwf completion bash|zsh|fish`: the script to source. */
export const completionScriptResultSchema = z.object({ shell: z.enum(["bash", "zsh", "fish"]), script: z.string() });
export type CompletionScriptResult = z.infer<typeof completionScriptResultSchema>;

/**
 * The hidden `uwf __complete WORD…` the completion scripts call: what the last word can become, and
 * whether the shell should also offer files or directories.
 */
export const completionCandidatesResultSchema = z.object({
  candidates: z.array(z.object({ value: z.string(), description: z.string().nullable() })),
  files: z.enum(["file", "directory"]).nullable(),
});
export type CompletionCandidatesResult = z.infer<typeof completionCandidatesResultSchema>;
