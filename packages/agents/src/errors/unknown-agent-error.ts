import { UwfError } from "@uwf/protocol";

/** An agent alias that `config.yaml` does not define. `source` says where the alias came from. */
export class UnknownAgentError extends UwfError {
  static readonly code = "unknown-agent" as const;

  constructor(alias: string, source: string, knownAliases: readonly string[]) {
    const known =
      knownAliases.length === 0
        ? "no agents are configured yet (uwf config set agents.NAME.command PROGRAM); scripted:FILE replays a scenario"
        : `known agents: ${knownAliases.join(", ")}, or scripted:FILE`;
    super(UnknownAgentError.code, `unknown agent "${alias}" (from ${source}); ${known}`, {
      data: { alias, source, knownAliases: [...knownAliases] },
    });
    this.name = "UnknownAgentError";
  }
}
