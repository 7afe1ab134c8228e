import { type Command, InvalidArgumentError } from "commander";
import type { RunCommand } from "../registry.ts";
import type { RunCommandOptions } from "./thread/run.ts";

type Register = (parent: Command, run: RunCommand) => void;

/**
 * Registers the tree, or only the top-level command `name` when it names one. Building the whole
 * tree costs a few milliseconds of every start-up; `--help`, `help`, no command and unknown
 * commands (for commander's suggestions) still get all of it, in this order.
 */
export function registerCommands(program: Command, run: RunCommand, name?: string): void {
  const only = name === undefined ? undefined : TOP_LEVEL.find(([candidate]) => candidate === name);
  for (const [, register] of only === undefined ? TOP_LEVEL : [only]) register(program, run);
}

const THREAD_COMMANDS: ReadonlyArray<readonly [string, Register]> = [
  ["start", registerStart],
  ["step", registerStep],
  ["run", registerRun],
  ["fork", registerFork],
  ["list", registerList],
  ["show", registerShow],
  ["log", registerLog],
  ["read", registerRead],
  ["resume", registerResume],
  ["cancel", registerCancel],
];

const TOP_LEVEL: ReadonlyArray<readonly [string, Register]> = [
  ["init", registerInit],
  [
    "workflow",
    (program, run) =>
      registerWorkflowCommands(program.command("workflow").description("add, validate, show and list workflows"), run),
  ],
  ...THREAD_COMMANDS,
  [
    "thread",
    (program, run) => {
      const thread = program.command("thread").description("thread commands (same as the top-level ones)");
      for (const [, register] of THREAD_COMMANDS) register(thread, run);
    },
  ],
  [
    "cas",
    (program, run) => registerCasCommands(program.command("cas").description("content-addressed store plumbing"), run),
  ],
  [
    "config",
    (program, run) => registerConfigCommands(program.command("config").description("read and change config.yaml"), run),
  ],
  ["setup", registerSetup],
];

function registerInit(program: Command, run: RunCommand): void {
  program
    .command("init")
    .description("create a .uwf/ home in the current directory")
    .action(run(async (context) => (await import("./init.ts")).initCommand(context)));
}

function registerSetup(program: Command, run: RunCommand): void {
  program
    .command("setup")
    .description("configure a model provider, its API key, the default model and agent (asks on a terminal)")
    .option("--provider <name>", "provider name in config.yaml (default anthropic)")
    .option("--base-url <url>", "the provider's base URL, for an Anthropic-compatible gateway")
    .option("--api-key-env <variable>", "environment variable holding the key (default ANTHROPIC_API_KEY)")
    .option("--api-key <key>", "store this key in the home's .env, mode 0600 (- reads it from stdin)")
    .option("--model <model>", "default model: a model id or a models alias")
    .option("--agent <agent>", "default agent: anthropic (built-in) or claude-code")
    .option("--no-verify", "do not check the key with a request")
    .action((options: import("./setup.ts").SetupOptions) =>
      run(async (context) => (await import("./setup.ts")).setupCommand(options, context))(),
    );
}

function registerWorkflowCommands(workflow: Command, run: RunCommand): void {
  workflow
    .command("add <file>")
    .description("register a workflow file (prints its name and hash)")
    .action((file: string) =>
      run(async (context) => (await import("./workflow/add.ts")).workflowAddCommand({ file }, context))(),
    );
  workflow
    .command("validate <file>")
    .description("check a workflow file; prints every problem, exit 1 when invalid")
    .action((file: string) =>
      run(async (context) => (await import("./workflow/validate.ts")).workflowValidateCommand({ file }, context))(),
    );
  workflow
    .command("show <workflow>")
    .description("show a workflow by name, hash or file")
    .option("--mermaid", "print a Mermaid flowchart of the graph")
    .action((reference: string, options: { mermaid?: boolean }) =>
      run(async (context) =>
        (await import("./workflow/show.ts")).workflowShowCommand(
          { reference, mermaid: options.mermaid === true },
          context,
        ),
      )(),
    );
  workflow
    .command("list")
    .description("registered workflows and those in the project's .uwf/workflows/")
    .action(() => run(async (context) => (await import("./workflow/list.ts")).workflowListCommand(context))());
}

function registerStart(parent: Command, run: RunCommand): void {
  parent
    .command("start <workflow>")
    .description("start a thread (prints its id); WORKFLOW is a name, a hash or a YAML file")
    .requiredOption("-p, --prompt <text>", "the task")
    .option("--cwd <dir>", "where the thread's agents run (default: here)")
    .option("--input <key=value>", "a start input (repeatable; the value is read as YAML)", collect)
    .option("--inputs <file>", "start inputs from a YAML or JSON map (- reads stdin)")
    .action((workflow: string, options: { prompt: string; cwd?: string; input?: string[]; inputs?: string }) =>
      run(async (context) => (await import("./thread/start.ts")).startCommand({ workflow, ...options }, context))(),
    );
}

function registerStep(parent: Command, run: RunCommand): void {
  parent
    .command("step <thread>")
    .description("run the thread's next step(s)")
    .option("-n, --steps <n>", "run up to N steps", parsePositiveInteger)
    .option("--all", "run until the thread ends or suspends")
    .option("--agent <alias>", "agent for roles that name none (an alias, or scripted:FILE)")
    .option("--timeout <seconds>", "agent timeout", parsePositiveNumber)
    .action((thread: string, options: { steps?: number; all?: boolean; agent?: string; timeout?: number }) =>
      run(async (context) => (await import("./thread/step.ts")).stepCommand({ thread, ...options }, context))(),
    );
}

function registerRun(parent: Command, run: RunCommand): void {
  parent
    .command("run <workflow>")
    .description("start a thread and step it until it ends or suspends")
    .requiredOption("-p, --prompt <text>", "the task")
    .option("--cwd <dir>", "where the thread's agents run (default: here)")
    .option("--input <key=value>", "a start input (repeatable; the value is read as YAML)", collect)
    .option("--inputs <file>", "start inputs from a YAML or JSON map (- reads stdin)")
    .option("--max-steps <n>", "stop after N steps", parsePositiveInteger)
    .option("--agent <alias>", "agent for roles that name none (an alias, or scripted:FILE)")
    .option("--timeout <seconds>", "agent timeout", parsePositiveNumber)
    .action((workflow: string, options: Omit<RunCommandOptions, "workflow">) =>
      run(async (context) => (await import("./thread/run.ts")).runCommand({ workflow, ...options }, context))(),
    );
}

function registerFork(parent: Command, run: RunCommand): void {
  parent
    .command("fork <hash>")
    .description("a new thread from any start or step node")
    .option("--output <file>", "replace the head step's reply with this file's (a counterfactual)")
    .action((hash: string, options: { output?: string }) =>
      run(async (context) => (await import("./thread/fork.ts")).forkCommand({ hash, ...options }, context))(),
    );
}

function registerList(parent: Command, run: RunCommand): void {
  parent
    .command("list")
    .description("threads, newest first")
    .option("--status <status>", "active, suspended, ended or cancelled")
    .option("--workflow <name>", "only threads of this workflow")
    .option("--limit <n>", "at most N threads", parsePositiveInteger)
    .option("--offset <n>", "skip the first N", parseNonNegativeInteger)
    .action((options: { status?: string; workflow?: string; limit?: number; offset?: number }) =>
      run(async (context) => (await import("./thread/list.ts")).listCommand(options, context))(),
    );
}

function registerShow(parent: Command, run: RunCommand): void {
  parent
    .command("show <thread-or-hash>")
    .description("a thread's record, or any node expanded (a step with its output, body and agent run)")
    .option("--prompt", "print the prompt sent to the agent")
    .option("--reply", "print the agent's raw reply")
    .action((reference: string, options: { prompt?: boolean; reply?: boolean }) =>
      run(async (context) => (await import("./thread/show.ts")).showCommand({ reference, ...options }, context))(),
    );
}

function registerLog(parent: Command, run: RunCommand): void {
  parent
    .command("log <thread>")
    .description("a thread's steps")
    .action((thread: string) =>
      run(async (context) => (await import("./thread/log.ts")).logCommand({ thread }, context))(),
    );
}

function registerRead(parent: Command, run: RunCommand): void {
  parent
    .command("read <thread>")
    .description("a thread as a markdown transcript")
    .option("--quota <chars>", "keep the newest steps within this many characters", parsePositiveInteger)
    .action((thread: string, options: { quota?: number }) =>
      run(async (context) => (await import("./thread/read.ts")).readCommand({ thread, ...options }, context))(),
    );
}

function registerResume(parent: Command, run: RunCommand): void {
  parent
    .command("resume <thread>")
    .description("answer a suspended thread, or continue an ended one through its $START resume edge")
    .requiredOption("-p, --prompt <answer>", "the answer or new instruction")
    .option("--agent <alias>", "agent for roles that name none (an alias, or scripted:FILE)")
    .option("--timeout <seconds>", "agent timeout", parsePositiveNumber)
    .action((thread: string, options: { prompt: string; agent?: string; timeout?: number }) =>
      run(async (context) => (await import("./thread/resume.ts")).resumeCommand({ thread, ...options }, context))(),
    );
}

function registerCancel(parent: Command, run: RunCommand): void {
  parent
    .command("cancel <thread>")
    .description("stop an active or suspended thread for good (it can still be forked)")
    .action((thread: string) =>
      run(async (context) => (await import("./thread/cancel.ts")).cancelCommand({ thread }, context))(),
    );
}

function registerCasCommands(cas: Command, run: RunCommand): void {
  cas
    .command("get <address>")
    .description("print a node's canonical JSON")
    .action((address: string) =>
      run(async (context) => (await import("./cas/get.ts")).casGetCommand({ address }, context))(),
    );
  cas
    .command("put [file]")
    .description("store a JSON document from FILE or stdin; prints its address")
    .action((file: string | undefined) =>
      run(async (context) => (await import("./cas/put.ts")).casPutCommand({ file }, context))(),
    );
  cas
    .command("has <address>")
    .description("exit 0 when the node is stored, 1 when not")
    .action((address: string) =>
      run(async (context) => (await import("./cas/has.ts")).casHasCommand({ address }, context))(),
    );
  cas
    .command("refs <address>")
    .description("the addresses a node points at")
    .action((address: string) =>
      run(async (context) => (await import("./cas/refs.ts")).casRefsCommand({ address }, context))(),
    );
  cas
    .command("walk <address...>")
    .description("every node reachable from the given ones")
    .action((addresses: string[]) =>
      run(async (context) => (await import("./cas/walk.ts")).casWalkCommand({ addresses }, context))(),
    );
  cas
    .command("verify")
    .description("re-hash every object, check what threads reach and every chain index")
    .action(() => run(async (context) => (await import("./cas/verify.ts")).casVerifyCommand(context))());
  cas
    .command("gc")
    .description("delete objects unreachable from threads and the registry, drop damaged chain indexes")
    .option("--dry-run", "only report what would be deleted")
    .option("--grace <seconds>", "keep objects younger than this (default 3600, at least 60)", parseNonNegativeInteger)
    .action((options: { dryRun?: boolean; grace?: number }) =>
      run(async (context) => (await import("./cas/gc.ts")).casGcCommand(options, context))(),
    );
  cas
    .command("recover")
    .description("rebuild lost thread records from the store's chains (moving a damaged refs.db aside)")
    .action(() => run(async (context) => (await import("./cas/recover.ts")).casRecoverCommand(context))());
}

function registerConfigCommands(config: Command, run: RunCommand): void {
  config
    .command("get <key>")
    .description("print one value (dotted key, e.g. agents.claude)")
    .action((key: string) =>
      run(async (context) => (await import("./config/get.ts")).configGetCommand({ key }, context))(),
    );
  config
    .command("set <key> <value>")
    .description("set one value (parsed as YAML)")
    .action((key: string, value: string) =>
      run(async (context) => (await import("./config/set.ts")).configSetCommand({ key, value }, context))(),
    );
  config
    .command("list")
    .description("the whole configuration")
    .action(() => run(async (context) => (await import("./config/list.ts")).configListCommand(context))());
}

function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("expected a positive whole number");
  return number;
}

function parseNonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return number;
}

function parsePositiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("expected a positive number");
  return number;
}

/** A repeatable option's values, in the order given. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
