#!/bin/sh
# A stand-in for a model, for docs/experiments.md: a command agent that plays both roles of change-review.yaml
# and answers differently on every run, so forks of one step really differ. Offline, no API key.
#   agents: { coin: { command: sh, args: [/abs/path/to/examples/experiments/agent.sh] } }
# APPROVE_PERCENT (default 60): how often the reviewer approves; TESTS_PERCENT (default 70): how often
# the writer adds a test. It reports made-up usage in UWF_USAGE_FILE, so costs and tokens vary too.
cat >/dev/null # the prompt: the whole thread; a real agent would read it
roll() { echo $(($(od -An -N2 -tu2 /dev/urandom) % 100)); }
r=$(roll)
sleep "0.$((r % 5 + 1))"
case "$UWF_ROLE" in
writer)
  if [ "$r" -lt "${TESTS_PERCENT:-70}" ]; then
    printf -- '---\nsummary: Added the flag and a test for it\nfiles: 2\ntests: true\n---\nThe flag skips the write; the test checks that nothing is written.\n'
  else
    printf -- '---\nsummary: Added the flag\nfiles: 1\ntests: false\n---\nThe flag skips the write.\n'
  fi
  ;;
reviewer)
  # A second review (after changes) only approves or rejects.
  v=$(roll)
  if [ "$v" -lt "${APPROVE_PERCENT:-60}" ]; then
    printf -- '---\n$status: approved\nseverity: none\ncomments: Does what the task asks.\n---\nApproved.\n'
  elif [ "$v" -lt 90 ] || [ "${UWF_STEP:-1}" -gt 2 ]; then
    printf -- '---\n$status: rejected\nseverity: major\ncomments: The flag still writes the lock file.\n---\nRejected.\n'
  else
    printf -- '---\n$status: changes\nseverity: minor\ncomments: Name the flag in the help text.\n---\nAlmost.\n'
  fi
  ;;
*)
  echo "agent.sh plays writer and reviewer, not $UWF_ROLE" >&2
  exit 1
  ;;
esac
printf '{"input_tokens":%d,"output_tokens":%d,"cost_usd":%d.%04d}\n' $((1200 + r * 30)) $((150 + r * 5)) 0 $((40 + r * 3)) >"$UWF_USAGE_FILE"
