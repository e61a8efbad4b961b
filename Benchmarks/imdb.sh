#!/usr/bin/env bash
# IMDb-size import benchmark: `moviecat import` of IMDb-shaped title.basics and
# title.ratings files against `sqlite3 .import` of the same files.  See Benchmarks/README.md.
#
#   Benchmarks/imdb.sh [ROWS]          ROWS (title.basics rows) defaults to 12000000
#
# Environment:
#   ROUNDS=3               rounds of the alternating runs (median reported)
#   MOVIECAT=path          the binary (default .build/release/moviecat; build it
#                          first with `swift build -c release`)
#   QUICK=1                100000 rows, one round: checks that everything works (for
#                          CI; asserts counts only, never times)
set -euo pipefail

usage() { sed -n '2,13s/^# \{0,1\}//p' "$0"; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[[ $# -le 1 ]] || { usage >&2; exit 64; }
if [[ ${QUICK:-0} == 1 ]]; then
    [[ $# -eq 0 ]] || die "QUICK=1 runs 100000 rows; give no ROWS with it"
    ROWS=100000 ROUNDS=1
else
    ROWS=${1:-12000000}
    ROUNDS=${ROUNDS:-3}
fi
[[ $ROWS =~ ^[1-9][0-9]*$ ]] || die "ROWS must be a positive integer, got '$ROWS'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"

cd "$ROOT"

# --- prerequisites ---------------------------------------------------------------
need_tools
need_moviecat "${1:-}"

# --- data -------------------------------------------------------------------------
BASICS=$DATA/title.basics-$ROWS.tsv
BASICS_GZ=$BASICS.gz
RATINGS=$DATA/title.ratings-$ROWS.tsv
RATINGS_GZ=$RATINGS.gz
# The generator renames each file into place only when complete, so present means whole.
if [[ ! -s $BASICS || ! -s $BASICS_GZ || ! -s $RATINGS || ! -s $RATINGS_GZ ]]; then
    python3 "$BENCH/gen_imdb.py" --rows "$ROWS" --gzip --out-dir "$DATA"
fi

WORK=$(mktemp -d "$DATA/imdb-run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
RESULTS=$WORK/results.tsv
: > "$RESULTS"

# What a correct run leaves, counted independently of moviecat: every row for .import;
# for moviecat the movie/tvMovie rows with isAdult=0 (its imdb-basics defaults), and of
# those the ones title.ratings rates.
read -r BASICS_ROWS KEPT KEPT_RATED RATINGS_ROWS < <(
    awk -F'\t' '
        FNR == 1 { next }
        NR == FNR { n++; if (($2 == "movie" || $2 == "tvMovie") && $5 == "0") { kept[$1]; k++ }; next }
        { r++; if ($1 in kept) kr++ }
        END { print n + 0, k + 0, kr + 0, r + 0 }' "$BASICS" "$RATINGS")
[[ $BASICS_ROWS == "$ROWS" ]] || die "$BASICS has $BASICS_ROWS rows, expected $ROWS; delete it to regenerate"

# --- machine ----------------------------------------------------------------------
mib() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
libsqlite=$(ldd "$MOVIECAT" 2>/dev/null | awk '/libsqlite3/ { print $3 }' || true)
libsqlite=${libsqlite:+$(readlink -f "$libsqlite")}
echo "## moviecat IMDb-size import benchmark"
echo
echo "- machine: nproc $(nproc), ${cpu:-unknown CPU}," \
     "$(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)," \
     "SQLite $(sqlite3 --version | cut -d' ' -f1) (sqlite3 CLI${libsqlite:+; moviecat links $libsqlite})"
echo "- moviecat: $MOVIECAT ($("$MOVIECAT" --version 2>&1 | head -n 1 || true)," \
     "modified $(date -r "$MOVIECAT" '+%F %T'))"
# Run a copy, so a rebuild during the benchmark cannot mix two versions.
cp "$MOVIECAT" "$WORK/moviecat"
MOVIECAT=$WORK/moviecat
echo "- input: $(basename "$BASICS") ($ROWS rows, $(mib "$BASICS"); .gz $(mib "$BASICS_GZ")," \
     "$KEPT movie/tvMovie rows with isAdult=0), $(basename "$RATINGS") ($RATINGS_ROWS rows," \
     "$(mib "$RATINGS"), $KEPT_RATED of them for those movies); rounds: $ROUNDS, alternating"
echo

# --- tools ------------------------------------------------------------------------
# Each takes a database path.  `.mode ascii` with tab/LF separators reads IMDb's files as
# they are: no quote handling (titles hold '"'), the header row names the columns.
sqlite_import() {  # DB FILE TABLE
    sqlite3 -bail "$1" -cmd '.mode ascii' -cmd '.separator "\t" "\n"' ".import \"$2\" $3"
}
tool_floor_basics() { sqlite_import "$1" "$BASICS" basics; }
tool_moviecat_basics() { "$MOVIECAT" --db "$1" import "$BASICS" --quiet; }
tool_moviecat_basics_gz() { "$MOVIECAT" --db "$1" import "$BASICS_GZ" --quiet; }
tool_floor_ratings() { sqlite_import "$1" "$RATINGS" ratings; }
tool_moviecat_ratings() { "$MOVIECAT" --db "$1" import "$RATINGS" --quiet; }
tool_moviecat_ratings_gz() { "$MOVIECAT" --db "$1" import "$RATINGS_GZ" --quiet; }
export -f sqlite_import tool_floor_basics tool_moviecat_basics tool_moviecat_basics_gz \
    tool_floor_ratings tool_moviecat_ratings tool_moviecat_ratings_gz
export BASICS BASICS_GZ RATINGS RATINGS_GZ MOVIECAT

rm_db() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# Untimed first run with moviecat's report: checks the counts before spending rounds on
# them, shows the reader what was kept, and warms the page cache for round 1.
REPORT_DB=$WORK/report.sqlite
echo "warm-up: moviecat import with its report" >&2
"$MOVIECAT" --db "$REPORT_DB" import "$BASICS" > "$WORK/report.txt" 2>&1 \
    && "$MOVIECAT" --db "$REPORT_DB" import "$RATINGS" >> "$WORK/report.txt" 2>&1 \
    || { sed 's/^/    | /' "$WORK/report.txt" >&2; die "moviecat import failed in the warm-up"; }
got=$(sqlite3 "$REPORT_DB" 'SELECT count(*), count(votes) FROM movies')
[[ $got == "$KEPT|$KEPT_RATED" ]] \
    || die "warm-up: movies, rated movies = ${got/|/, }; expected $KEPT, $KEPT_RATED"
rm_db "$REPORT_DB"

declare -A FAILED=()
# run NAME DB ROUND QUERY EXPECTED: one timed run of tool_NAME on DB, then QUERY on DB
# must give EXPECTED.
run() {
    local name=$1 db=$2 round=$3 query=$4 expected=$5
    local log=$WORK/$name.log tf=$WORK/$name.time got secs rss start
    start=$(date +%s%N)  # wall clock in ns: GNU time's %e has only 1/100 s
    if ! /usr/bin/time -f '%M' -o "$tf" bash -c "set -euo pipefail; tool_$name \"\$1\"" _ "$db" \
            > "$log" 2>&1; then
        FAILED[$name]="exit status $(sed -n 's/^Command exited with non-zero status //p' "$tf")"
        printf '  %-20s FAILED (%s); its output:\n' "$name" "${FAILED[$name]}" >&2
        tail -n 20 "$log" | sed 's/^/    | /' >&2
        return 1
    fi
    secs=$(( $(date +%s%N) - start ))
    secs=$(printf '%d.%09d' $(( secs / 1000000000 )) $(( secs % 1000000000 )))
    got=$(sqlite3 "$db" "$query" 2>&1) || true
    if [[ $got != "$expected" ]]; then
        FAILED[$name]="'$query' gave '$got', expected '$expected'"
        printf '  %-20s FAILED (%s)\n' "$name" "${FAILED[$name]}" >&2
        return 1
    fi
    rss=$(tail -n 1 "$tf")
    printf '%s\t%s\t%s\t%s\n' "$name" "$round" "$secs" "$rss" >> "$RESULTS"
    printf '  %-20s %8.2f s  %6d MiB\n' "$name" "$secs" $(( rss / 1024 )) >&2
}

# measure NAME ROUND QUERY EXPECTED [keep]: run on a fresh database, deleted afterwards
# unless "keep" (the basics catalog that the ratings step then updates).
measure() {
    local name=$1 db=$WORK/$1.sqlite
    [[ -z ${FAILED[$name]:-} ]] || return 1
    rm_db "$db"
    run "$name" "$db" "$2" "$3" "$4" || { rm_db "$db"; return 1; }
    [[ ${5:-} == keep ]] || rm_db "$db"
}

for (( round = 1; round <= ROUNDS; round++ )); do
    echo "round $round/$ROUNDS" >&2
    measure floor_basics "$round" 'SELECT count(*) FROM basics' "$BASICS_ROWS" || true
    catalog=
    measure moviecat_basics "$round" 'SELECT count(*) FROM movies' "$KEPT" keep \
        && catalog=$WORK/moviecat_basics.sqlite
    measure moviecat_basics_gz "$round" 'SELECT count(*) FROM movies' "$KEPT" || true
    measure floor_ratings "$round" 'SELECT count(*) FROM ratings' "$RATINGS_ROWS" || true
    # Ratings update this round's basics catalog: a fresh one each round, and the
    # basics import it took is a separate process, outside this timing.
    if [[ -n $catalog && -z ${FAILED[moviecat_ratings]:-} ]]; then
        # The gzipped ratings update a copy of the same catalog (the basics import left no WAL).
        rm_db "$WORK/ratings_gz.sqlite"
        cp "$catalog" "$WORK/ratings_gz.sqlite"
        run moviecat_ratings "$catalog" "$round" \
            'SELECT count(*), count(votes) FROM movies' "$KEPT|$KEPT_RATED" || true
        run moviecat_ratings_gz "$WORK/ratings_gz.sqlite" "$round" \
            'SELECT count(*), count(votes) FROM movies' "$KEPT|$KEPT_RATED" || true
        rm_db "$WORK/ratings_gz.sqlite"
    elif [[ -z $catalog ]]; then
        FAILED[moviecat_ratings]=${FAILED[moviecat_ratings]:-"no catalog: moviecat_basics failed"}
    fi
    [[ -z $catalog ]] || rm_db "$catalog"
done
echo >&2

# --- report -----------------------------------------------------------------------
python3 - "$RESULTS" "$BASICS_ROWS" "$RATINGS_ROWS" "${!FAILED[@]}" <<'PY'
import statistics, sys
path, basics_rows, ratings_rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failed = set(sys.argv[4:])
# name: (label, input rows, the sqlite3 .import it is compared with)
rows = {
    "floor_basics": ("sqlite3 .import title.basics (one text table)", basics_rows, "floor_basics"),
    "moviecat_basics": ("moviecat import title.basics .tsv", basics_rows, "floor_basics"),
    "moviecat_basics_gz": ("moviecat import title.basics .tsv.gz", basics_rows, "floor_basics"),
    "floor_ratings": ("sqlite3 .import title.ratings (one text table)", ratings_rows, "floor_ratings"),
    "moviecat_ratings": ("moviecat import title.ratings (updates the basics catalog)",
                         ratings_rows, "floor_ratings"),
    "moviecat_ratings_gz": ("moviecat import title.ratings .tsv.gz (the same)", ratings_rows, "floor_ratings"),
}
runs = {}
for line in open(path):
    name, _, secs, rss = line.split("\t")
    runs.setdefault(name, []).append((float(secs), int(rss)))
def fmt(s):
    return f"{s:.2f}" if s >= 1 else f"{s:.3f}"
print("| step | input rows | runs | median s | min–max s | peak RSS MiB | vs its sqlite3 .import |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, (label, n, floor) in rows.items():
    if name in failed or name not in runs:
        print(f"| {label} | {n:,} | | FAILED | | | |")
        continue
    secs = [s for s, _ in runs[name]]
    median = statistics.median(secs)
    rss = max(r for _, r in runs[name]) / 1024
    base = statistics.median(s for s, _ in runs[floor]) if floor in runs and floor not in failed else None
    ratio = f"{median / base:.2f}x" if base else "n/a"
    print(f"| {label} | {n:,} | {len(secs)} | {fmt(median)} | {fmt(min(secs))}–{fmt(max(secs))} | "
          f"{rss:.0f} | {ratio} |")
print("\nmedian and range of the alternating wall-clock runs (process start and, for moviecat, "
      "migrations and the final checkpoint included); peak RSS = the largest of the runs "
      "(GNU time %M); ratios: median / the median of the sqlite3 .import of the same file.")
PY
echo
echo "moviecat's report (untimed warm-up run, without --quiet: basics, then ratings):"
echo
echo '```'
sed "s|$DATA/||" "$WORK/report.txt"
echo '```'

if [[ ${#FAILED[@]} -gt 0 ]]; then
    for name in "${!FAILED[@]}"; do echo "imdb.sh: $name failed: ${FAILED[$name]}" >&2; done
    exit 1
fi
