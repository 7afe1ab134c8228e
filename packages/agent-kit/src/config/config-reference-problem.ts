/**
 * A setting that names an agent, model or provider the config does not know, or an MCP server setting
 * the schema cannot check (`findConfigReferenceProblems`, `findMcpServerProblems`).
 */
export interface ConfigReferenceProblem {
  /** The dotted key of the setting (`defaultAgent`, `models.fast.provider`). */
  key: string;
  /** `unknown agent "nope"; known: claude, anthropic (or scripted:FILE)` */
  message: string;
}
