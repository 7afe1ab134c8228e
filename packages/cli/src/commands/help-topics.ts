/** `uwf help TOPIC`: what is not one command's. */
export const HELP_TOPICS: ReadonlyArray<{ name: string; description: string }> = [
  { name: "exit-codes", description: "what each exit code means, and the error codes behind it" },
  { name: "json", description: "what --json prints, and the schema of each command's document" },
];
