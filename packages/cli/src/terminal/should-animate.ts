/**
 * Whether stderr, a terminal, may carry a status line that redraws itself (a spinner, a batch's counts):
 * only when the terminal can move the cursor (`TERM` is not `dumb`) and outside CI. A CI runner often
 * gives the process a terminal, but its log is a file: every redraw would become a line of it (`CI=true`
 * printed a spinner line a second). There, each step's own line, printed when it ends, is the progress.
 */
export function shouldAnimate(env: NodeJS.ProcessEnv): boolean {
  // Any `CI`, as the spinner (yocto-spinner) itself reads it: set at all, it would print a line per redraw.
  return env.TERM !== "dumb" && env.CI === undefined;
}
