import { describe, expect, it } from "bun:test";
import { type Config, configSchema, type Role } from "@uwf/protocol";
import { NoAgentError } from "../errors/no-agent-error.ts";
import { UnknownAgentError } from "../errors/unknown-agent-error.ts";
import { resolveAgent } from "./resolve-agent.ts";

const config: Config = configSchema.parse({
  agents: {
    claude: { command: "claude", args: ["-p"] },
    codex: { command: "codex", timeout: 60 },
    demo: { builtin: "scripted", scenario: "demo.yaml" },
  },
  defaultAgent: "claude",
  agentOverrides: { "review-loop": { reviewer: "codex" } },
  timeout: 900,
});

const plainRole: Role = { goal: "Write." };
const aliasRole: Role = { goal: "Write.", agent: "demo" };
const inlineRole: Role = { goal: "Test.", agent: { builtin: "shell", run: "bun test" } };

describe("resolveAgent", () => {
  it("uses the override for the workflow and role first, even over --agent", () => {
    const resolved = resolveAgent({
      config,
      workflowName: "review-loop",
      role: aliasRole,
      roleName: "reviewer",
      flagAlias: "demo",
    });
    expect(resolved).toMatchObject({ alias: "codex", source: "override", timeoutMs: 60_000 });
  });

  it("then the role's own agent, an alias or an inline spec, which --agent does not replace", () => {
    expect(
      resolveAgent({ config, workflowName: "other", role: aliasRole, roleName: "reviewer", flagAlias: "codex" }),
    ).toMatchObject({ alias: "demo", source: "role" });
    expect(
      resolveAgent({ config, workflowName: "other", role: inlineRole, roleName: "tests", flagAlias: "codex" }),
    ).toEqual({
      alias: "shell",
      spec: { builtin: "shell", run: "bun test" },
      source: "role",
      timeoutMs: 900_000,
    });
  });

  it("then the --agent flag for roles that name no agent", () => {
    const resolved = resolveAgent({
      config,
      workflowName: "other",
      role: plainRole,
      roleName: "writer",
      flagAlias: "demo",
    });
    expect(resolved).toMatchObject({
      alias: "demo",
      source: "flag",
      spec: { builtin: "scripted", scenario: "demo.yaml" },
    });
  });

  it("then the default agent", () => {
    expect(resolveAgent({ config, workflowName: "other", role: plainRole, roleName: "writer" })).toMatchObject({
      alias: "claude",
      source: "default",
      spec: { command: "claude", args: ["-p"] },
    });
  });

  it("takes the timeout from --timeout, else the agent, else the config", () => {
    const base = { config, workflowName: "other", role: plainRole, roleName: "writer" };
    expect(resolveAgent({ ...base, timeoutSeconds: 5 }).timeoutMs).toBe(5_000);
    expect(resolveAgent({ ...base, flagAlias: "codex" }).timeoutMs).toBe(60_000);
    expect(resolveAgent(base).timeoutMs).toBe(900_000);
  });

  it("puts a role's own timeout between --timeout and the agent's, as seconds or a duration", () => {
    const base = { config, workflowName: "other", roleName: "writer", flagAlias: "codex" };
    const inSeconds: Role = { goal: "Write.", timeout: 1.5 };
    const asDuration: Role = { goal: "Write.", timeout: "1m30s" };
    expect(resolveAgent({ ...base, role: inSeconds }).timeoutMs).toBe(1_500);
    expect(resolveAgent({ ...base, role: asDuration }).timeoutMs).toBe(90_000);
    expect(resolveAgent({ ...base, role: asDuration, timeoutSeconds: 5 }).timeoutMs).toBe(5_000);
    expect(resolveAgent({ ...base, role: { ...inlineRole, timeout: "2m" } }).timeoutMs).toBe(120_000);
  });

  it("gives the home as base folder for agents defined in config.yaml", () => {
    const base = { config, workflowName: "other", roleName: "writer", home: "/home/.uwf" };
    expect(resolveAgent({ ...base, role: aliasRole }).baseDir).toBe("/home/.uwf");
    expect(resolveAgent({ ...base, role: inlineRole }).baseDir).toBeUndefined();
  });

  it("names an unknown alias, where it came from and the known ones", () => {
    const resolve = () =>
      resolveAgent({ config, workflowName: "w", role: plainRole, roleName: "writer", flagAlias: "gpt" });
    expect(resolve).toThrow(UnknownAgentError);
    expect(resolve).toThrow('unknown agent "gpt" (from --agent); known agents: claude, codex, demo, or scripted:FILE');
  });

  it("reads scripted:FILE as the scripted built-in without any config", () => {
    const empty = configSchema.parse({});
    const resolved = resolveAgent({
      config: empty,
      workflowName: "w",
      role: plainRole,
      roleName: "writer",
      flagAlias: "scripted:/s/demo.yaml",
    });
    expect(resolved).toEqual({
      alias: "scripted",
      spec: { builtin: "scripted", scenario: "/s/demo.yaml" },
      source: "flag",
      timeoutMs: 1_800_000,
    });
    expect(() =>
      resolveAgent({ config: empty, workflowName: "w", role: plainRole, roleName: "writer", flagAlias: "scripted:" }),
    ).toThrow("no agents are configured yet");
  });

  it("does not take inherited object keys for aliases", () => {
    expect(() =>
      resolveAgent({ config, workflowName: "w", role: plainRole, roleName: "writer", flagAlias: "toString" }),
    ).toThrow(UnknownAgentError);
  });

  it("explains how to configure an agent when none is named", () => {
    const empty = configSchema.parse({});
    try {
      resolveAgent({ config: empty, workflowName: "w", role: plainRole, roleName: "writer" });
      throw new Error("expected a throw");
    } catch (error) {
      expect(error).toBeInstanceOf(NoAgentError);
      expect((error as NoAgentError).code).toBe("no-agent");
      expect((error as Error).message).toContain("uwf config set defaultAgent");
      expect((error as Error).message).toContain("--agent");
    }
  });
});
