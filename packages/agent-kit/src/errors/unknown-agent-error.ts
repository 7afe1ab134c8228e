import { UwfError } from "@uwf/protocol";

/** An agent alias that `config.yaml` does not define. `source` says where the alias came from. */
export class UnknownAgentError extends UwfError<"unknown-agent"> {
  static override readonly code = "unknown-agent" as const;
  static override readonly name = "UnknownAgentError";

  constructor(alias: string, source: string, knownAliases: readonly string[]) {
    const known =
      knownAliases.length === 0
        ? "no agents are configured yet (uwf config set agents.NAME.command PROGRAM); scripted:FILE replays a scenario"
        : `known agents: ${knownAliases.join(", ")}, or scripted:FILE`;
    super(`unknown agent ${JSON.stringify(alias)} (from ${source}); ${known}`, {
      data: { alias, source, knownAliases: [...knownAliases] },
    });
  }
}
