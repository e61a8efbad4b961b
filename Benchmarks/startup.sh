#!/usr/bin/env bash
# Start-up cost: `moviecat filter --count` on the demo catalog against `sqlite3` counting the
# same table, each run RUNS times in a row, alternating ROUNDS times; prints the mean of each
# round in ms and the ratio of the medians.  See Benchmarks/README.md.
#
#   Benchmarks/startup.sh         RUNS=100 ROUNDS=5 MOVIECAT=.build/release/moviecat
set -euo pipefail
RUNS=${RUNS:-100} ROUNDS=${ROUNDS:-5}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MOVIECAT=${MOVIECAT:-$ROOT/.build/release/moviecat}
[[ -x $MOVIECAT ]] || { echo "startup.sh: error: no moviecat at '$MOVIECAT' (swift build -c release)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "startup.sh: error: sqlite3 not found" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/seed.sqlite
"$MOVIECAT" --db "$DB" init --seed >/dev/null 2>&1

# Mean microseconds of RUNS runs of the command.
mean_ms() {
    local start end
    start=$(date +%s%N)
    for ((i = 0; i < RUNS; i++)); do "$@" >/dev/null; done
    end=$(date +%s%N)
    echo $(( (end - start) / RUNS / 1000 ))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: > "$WORK/m"; : > "$WORK/s"
for ((r = 1; r <= ROUNDS; r++)); do
    mean_ms "$MOVIECAT" --db "$DB" filter --count >> "$WORK/m"
    mean_ms sqlite3 "$DB" "SELECT count(*) FROM movies" >> "$WORK/s"
done
m=$(median < "$WORK/m"); s=$(median < "$WORK/s")
awk -v m="$m" -v s="$s" -v rounds="$ROUNDS" -v runs="$RUNS" 'BEGIN {
    printf "moviecat filter --count   %6.2f ms (median of %d rounds of %d runs)\n", m / 1000, rounds, runs
    printf "sqlite3 SELECT count(*)   %6.2f ms\n", s / 1000
    printf "ratio                     %6.2fx\n", m / s
}'
