import { UwfError } from "@uwf/protocol";

/** An agent kind uwf knows but cannot launch yet (the `anthropic` built-in, presets). */
export class AgentUnavailableError extends UwfError<"agent-unavailable"> {
  static override readonly code = "agent-unavailable" as const;
  static override readonly name = "AgentUnavailableError";

  constructor(alias: string, kind: string) {
    super(
      `agent "${alias}" is a ${kind} agent, which this version of uwf cannot run yet; ` +
        "use a command agent (uwf config set agents.NAME.command PROGRAM) or choose another with --agent",
      { data: { alias, kind } },
    );
  }
}
