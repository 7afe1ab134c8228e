import { UwfError } from "@uwf/protocol";

/** Nothing says which agent plays a role: no `--agent`, no override, no role agent, no `defaultAgent`. */
export class NoAgentError extends UwfError<"no-agent"> {
  static override readonly code = "no-agent" as const;
  static override readonly name = "NoAgentError";

  constructor(workflowName: string, roleName: string) {
    super(
      `no agent for role ${roleName} of workflow ${workflowName}: set a default with ` +
        "`uwf config set defaultAgent ALIAS` (after defining it, e.g. `uwf config set agents.ALIAS.command PROGRAM`), " +
        "pass --agent ALIAS, or give the role an `agent:`",
      { data: { workflow: workflowName, role: roleName } },
    );
  }
}
