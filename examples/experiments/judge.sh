#!/bin/sh
# An offline judge for change-judge.yaml (docs/experiments.md): reads the transcript uwf sends and passes a thread
# the reviewer approved whose last change came with a test. A model reads the same prompt.
#   agents: { judge-sh: { command: sh, args: [/abs/path/to/examples/experiments/judge.sh] } }
transcript=$(cat)
last_tests=$(printf '%s\n' "$transcript" | grep -E '^tests: (true|false)$' | tail -n 1)
if printf '%s' "$transcript" | grep -q 'with \$status approved' && [ "$last_tests" = "tests: true" ]; then
  printf -- '---\npass: true\nscore: 0.9\nreason: approved, and the change has a test\n---\nGood.\n'
elif printf '%s' "$transcript" | grep -q 'with \$status approved'; then
  printf -- '---\npass: false\nscore: 0.4\nreason: approved without a test\n---\nThe reviewer let an untested change through.\n'
else
  printf -- '---\npass: false\nscore: 0.1\nreason: not approved\n---\nThe change was not approved.\n'
fi
