import { stdoutIsTerminal } from "./standard-streams.ts";

/** The pager when `PAGER` is not set, as git's: `-R` shows colour codes as colour. */
export const DEFAULT_PAGER = "less -R";

/**
 * Shows `text` through the user's pager (`$PAGER`, else `less -R`) when stdout is a terminal and the
 * text is longer than its screen, as git does; true when it did. `PAGER` set to empty or `cat` means no
 * pager. A pager that is not installed, or that is quit before it read everything, is no error: the
 * first prints the text plainly (false), the second is the reader's choice.
 */
export async function pageOutput(text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const pager = env.PAGER ?? DEFAULT_PAGER;
  if (pager.trim() === "" || pager.trim() === "cat" || !stdoutIsTerminal()) return false;
  if (screenLines(text, process.stdout.columns) <= (process.stdout.rows ?? Number.POSITIVE_INFINITY)) return false;
  const child = Bun.spawn(["sh", "-c", pager], { stdin: "pipe", stdout: "inherit", stderr: "inherit", env });
  try {
    child.stdin.write(text);
    await child.stdin.end();
  } catch {
    // The reader quit before the end (`q` in less): nothing more to show.
  }
  const exitCode = await child.exited;
  // `sh -c` exits 127 when the pager is not installed: show the text after all.
  return exitCode !== 127;
}

/** How many terminal lines `text` takes, long lines wrapped at `columns`. */
function screenLines(text: string, columns: number | undefined): number {
  const width = columns !== undefined && columns > 0 ? columns : Number.POSITIVE_INFINITY;
  return text
    .replace(/\n$/, "")
    .split("\n")
    .reduce((total, line) => total + Math.max(1, Math.ceil(Bun.stringWidth(line) / width)), 0);
}
