#!/usr/bin/env bash
# Steadiness check (issue 24.5): RUNS consecutive runs of the whole suite while a second copy of
# the suite runs beside them, as on a loaded CI machine. Both copies are fresh worktrees of HEAD
# (committed work only), each with its own dist/ and its own servers on free ports; node_modules
# is this checkout's. Prints each run's outcome and duration; exits non-zero if any run of the
# first copy failed. Usage: scripts/steady-runs.sh [RUNS=3]
set -uo pipefail
RUNS="${1:-3}"
# The installed modules (better-sqlite3's binary) are built for the Node that ran `npm ci`: an
# older Node on PATH crashes the SQLite tests and the demo (session 8's failed steady run was that).
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'; then
  echo "steady-runs: node $(node --version) is older than 22.12; put the Node you installed with first on PATH" >&2
  exit 2
fi
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/paydrop-steady-XXXXXX")"
cleanup() {
  [[ -n "${BESIDE_PID:-}" ]] && kill -- -"$BESIDE_PID" 2>/dev/null
  for copy in main beside; do git -C "$ROOT" worktree remove --force "$WORK/$copy" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
for copy in main beside; do
  git -C "$ROOT" worktree add --detach -q "$WORK/$copy" HEAD
  ln -s "$ROOT/node_modules" "$WORK/$copy/node_modules"
  (cd "$WORK/$copy" && npm run build >"$WORK/$copy.build.log" 2>&1) || {
    echo "build failed in $copy: $WORK/$copy.build.log"; exit 2; }
done
# The second copy: the suite again and again, until the first copy's runs are over.
set -m
# A failing run's log is kept in .steady-logs/ too: the worktree goes when the script ends.
( cd "$WORK/beside" && n=0 && while true; do
    n=$((n + 1)); npx vitest run >"$WORK/beside.$n.log" 2>&1
    code=$?
    echo "beside run $n: exit $code ($(grep -E '^[0-9]+ passed' "$WORK/beside.$n.log" | tail -1))"
    if [[ $code -ne 0 ]]; then
      mkdir -p "$ROOT/.steady-logs" && cp "$WORK/beside.$n.log" "$ROOT/.steady-logs/beside-$n.log"
    fi
  done ) &
BESIDE_PID=$!
set +m
failed=0
for run in $(seq 1 "$RUNS"); do
  start=$(date +%s)
  (cd "$WORK/main" && npm test >"$WORK/main.$run.log" 2>&1)
  code=$?
  summary=$(grep -E '^[0-9]+ passed' "$WORK/main.$run.log" | tail -1)
  echo "run $run: exit $code after $(( $(date +%s) - start )) s ($summary)"
  if [[ $code -ne 0 ]]; then
    failed=1
    mkdir -p "$ROOT/.steady-logs" && cp "$WORK/main.$run.log" "$ROOT/.steady-logs/run-$run.log"
    grep -E "FAIL|×" "$WORK/main.$run.log" | head -20
  fi
done
exit $failed
