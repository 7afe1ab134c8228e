import { UwfError } from "@uwf/protocol";

/** One problem in `config.yaml`, located. `line` and `column` are 1-based, null when unknown. */
export interface ConfigProblem {
  line: number | null;
  column: number | null;
  /** Dotted field path (`agents.claude.command`), empty for the file as a whole. */
  path: string;
  message: string;
}

/** A `config.yaml` that cannot be used; every problem names the file, the line and the field. */
export class InvalidConfigError extends UwfError {
  static readonly code = "invalid-config" as const;

  readonly file: string;
  readonly problems: ConfigProblem[];

  constructor(file: string, problems: ConfigProblem[], intro = `config file ${file} is invalid`) {
    const lines = problems.map((problem) => `  ${formatConfigProblem(file, problem)}`);
    super(InvalidConfigError.code, [`${intro}:`, ...lines].join("\n"), { data: { file, problems } });
    this.name = "InvalidConfigError";
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
