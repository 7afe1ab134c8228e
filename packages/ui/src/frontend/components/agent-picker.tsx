import { useEffect, useState } from "preact/hooks";
import { getJson } from "../lib/api.ts";

/** An agent alias of config.yaml, as `GET /api/agents` gives it: its name and kind, none of its settings. */
export interface AgentAlias {
  alias: string;
  kind: string;
}

let loaded: Promise<AgentAlias[]> | undefined;

/** The configured aliases, fetched once per page load (config.yaml's agents change rarely; a reload sees new ones). */
function useAgentAliases(): AgentAlias[] | null {
  const [aliases, setAliases] = useState<AgentAlias[] | null>(null);
  useEffect(() => {
    loaded ??= getJson<{ agents: AgentAlias[] }>("/api/agents").then(
      (result) => result.agents,
      () => {
        loaded = undefined;
        return [];
      },
    );
    void loaded.then(setAliases);
  }, []);
  return aliases;
}

/**
 * Which agent an action runs with: config.yaml's own choice (empty: its `agentOverrides`, then
 * `defaultAgent`, as a command without `--agent`), or one of its aliases. The value is the body's `agent`.
 */
export function AgentPicker(props: {
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  testid: string;
  label?: string;
}) {
  const aliases = useAgentAliases();
  return (
    <label class="agent-picker">
      {props.label ?? "Agent"}{" "}
      <select
        data-testid={props.testid}
        value={props.value}
        disabled={props.disabled === true}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        <option value="">config.yaml's choice</option>
        {(aliases ?? []).map((agent) => (
          <option key={agent.alias} value={agent.alias}>
            {agent.alias} ({agent.kind})
          </option>
        ))}
      </select>
    </label>
  );
}

/** `{ agent }` for an action's body when one is picked, else nothing (config.yaml chooses). */
export function agentBody(agent: string): { agent?: string } {
  return agent === "" ? {} : { agent };
}
