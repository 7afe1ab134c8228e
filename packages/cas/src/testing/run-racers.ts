/**
 * Runs `workers` processes of the racing fixture `fixture` at once (`bun FIXTURE ...args WORKER START_AT`),
 * each told to begin at the same moment, and gives back what each printed on stdout, parsed as JSON, in
 * worker order. A racer that exits non-zero or writes on stderr fails the race.
 */
export async function runRacers<Result>(fixture: string, workers: number, args: readonly string[]): Promise<Result[]> {
  // Far enough ahead that every racer has started and opened the store before any begins, on a busy machine too.
  const startAt = Date.now() + 5000;
  const children = Array.from({ length: workers }, (_, worker) =>
    Bun.spawn([process.execPath, fixture, ...args, String(worker), String(startAt)], {
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  return Promise.all(
    children.map(async (child) => {
      const [stdout, stderr, exitCode] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      if (exitCode !== 0 || stderr !== "") throw new Error(`a racer exited ${exitCode}: ${stderr}`);
      return JSON.parse(stdout) as Result;
    }),
  );
}
