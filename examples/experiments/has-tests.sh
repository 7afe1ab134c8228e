#!/bin/sh
# A command scorer for `uwf eval --assert 'command: sh examples/experiments/has-tests.sh'`
# (docs/experiments.md): reads the thread's view as JSON on stdin and prints one JSON object
# { pass, score?, reason? }. Passes when the writer's last reply says it added a test. Needs jq.
jq -c '[.steps[] | select(.role == "writer")] | last | .output.tests // false
  | { pass: ., score: (if . then 1 else 0 end), reason: (if . then "the change has a test" else "no test" end) }'
