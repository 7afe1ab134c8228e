/**
 * A writer and a reviewer: the reviewer's `$status` ends the thread (approved, rejected) or sends the
 * draft back (changes). The comparisons' tests (the engine's compareFamily, the CLI's `uwf compare`) step
 * its threads to the verdicts they need.
 */
export const VERDICT_WORKFLOW = [
  "name: verdict",
  "roles:",
  "  writer: { goal: Write., frontmatter: { type: object, properties: { draft: { type: string } }, required: [draft] } }",
  "  reviewer: { goal: Review. }",
  "graph:",
  "  $START: [ { role: writer, prompt: Write. } ]",
  "  writer: [ { role: reviewer, prompt: Review. } ]",
  "  reviewer:",
  "    approved: { role: $END, prompt: Approved. }",
  "    rejected: { role: $END, prompt: Rejected. }",
  "    changes: { role: writer, prompt: Again. }",
  "",
].join("\n");
