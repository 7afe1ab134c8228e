/** Field paths holding addresses, per node kind: what `refs`, `walk` and `gc` follow. */
export const NODE_REF_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "workflow/1": [],
  "thread-start/1": ["workflow"],
  "thread-step/1": ["start", "prev", "output", "body", "run", "fanOut", "joined", "answer"],
  "output/1": [],
  "text/1": [],
  "prompt/1": ["parts[].ref"],
  "agent-run/1": ["prompt", "transcript", "attempts[].request", "attempts[].reply"],
  "transcript/1": [],
  "fan-out/1": [],
  "branches/1": ["fanOut", "results[].head", "results[].output", "results[].body"],
  "answer/1": [],
  "eval-report/1": ["source.text", "samples[].head", "samples[].scores[].judge.head", "rescoredFrom"],
  "explore-report/1": [
    "head",
    "original.head",
    "original.scores[].judge.head",
    "steps[].from",
    "steps[].samples[].head",
    "steps[].samples[].scores[].judge.head",
    "rescoredFrom",
  ],
};
