import { type ConfigProblem, UwfError } from "@uwf/protocol";

export type { ConfigProblem };

/** A `config.yaml` that cannot be used; every problem names the file, the line and the field. */
export class InvalidConfigError extends UwfError<"invalid-config"> {
  static override readonly code = "invalid-config" as const;
  static override readonly name = "InvalidConfigError";

  readonly file: string;
  readonly problems: ConfigProblem[];

  constructor(file: string, problems: ConfigProblem[], intro = `config file ${file} is invalid`) {
    const lines = problems.map((problem) => `  ${formatConfigProblem(file, problem)}`);
    super([`${intro}:`, ...lines].join("\n"), { data: { file, problems } });
    this.file = file;
    this.problems = problems;
  }
}

/** `/home/.uwf/config.yaml:3:5: agents.claude.command: Invalid input: expected string, received number`. */
export function formatConfigProblem(file: string, problem: ConfigProblem): string {
  const position =
    problem.line === null ? file : `${file}:${problem.line}${problem.column === null ? "" : `:${problem.column}`}`;
  return problem.path === "" ? `${position}: ${problem.message}` : `${position}: ${problem.path}: ${problem.message}`;
}
