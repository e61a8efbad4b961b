#!/usr/bin/env bash
# Import benchmark: `moviecat import` against SQLite's own CSV loader and other ways of
# loading the same CSV.  See Benchmarks/README.md.
#
#   Benchmarks/import.sh [ROWS]          ROWS defaults to 1000000
#
# Environment:
#   ROUNDS=3               rounds of the alternating runs (median reported)
#   MOVIECAT=path          the binary (default .build/release/moviecat; build it
#                          first with `swift build -c release`)
#   SEED=1                 generator seed
#   DUPLICATES=0           percent of rows that repeat an earlier row's title and year
#                          (gen_movies.py --duplicates); the catalogs must then hold the
#                          distinct movies, the floor's table every row
#   SHUFFLE=1              shuffle the generated rows (seeded), so that repeats lie far
#                          from the rows they repeat: moviecat folds the near ones in memory
#   SKIP_MOVIECAT=1        leave moviecat out (to try the script without a build)
#   SKIP_SQLITE_UTILS=1    leave sqlite-utils out
#   SKIP_YARDSTICKS=1      leave out normalise.sql and Python (minutes a run at 10M rows)
#   SKIP_SCHEMA_FLOOR=1    leave out SQLite writing moviecat's finished catalog (the schema's
#                          floor), and SPEC section 2's tables alone (the SPEC's floor); they
#                          need one untimed moviecat import first
#   SKIP_REIMPORT=1        leave out moviecat importing the same file again into the catalog
#                          it made (every row then repeats a stored movie)
set -euo pipefail

usage() { sed -n '2,25s/^# \{0,1\}//p' "$0"; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[[ $# -le 1 ]] || { usage >&2; exit 64; }
ROWS=${1:-1000000}
ROUNDS=${ROUNDS:-3}
DUPLICATES=${DUPLICATES:-0}
SEED=${SEED:-1}
[[ $ROWS =~ ^[1-9][0-9]*$ ]] || die "ROWS must be a positive integer, got '$ROWS'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"
[[ $DUPLICATES =~ ^[0-9]+$ ]] && (( DUPLICATES < 100 )) || die "DUPLICATES must be 0..99, got '$DUPLICATES'"
[[ $SEED =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer, got '$SEED'"

cd "$ROOT"
SAMPLE_ROWS=$(( ROWS < 200000 ? ROWS : 200000 ))

# --- prerequisites ---------------------------------------------------------------
need_tools
if [[ ${SKIP_MOVIECAT:-0} != 1 ]]; then
    MORE_HINTS="
  or leave it out:  SKIP_MOVIECAT=1 $0 ${1:-}" need_moviecat "${1:-}"
fi
if [[ ${SKIP_SQLITE_UTILS:-0} != 1 ]] && ! command -v sqlite-utils >/dev/null; then
    echo "sqlite-utils not found; installing it: python3 -m pip install sqlite-utils" >&2
    python3 -m pip install --quiet sqlite-utils \
        || die "could not install sqlite-utils; set SKIP_SQLITE_UTILS=1 to leave it out"
    hash -r
    command -v sqlite-utils >/dev/null || die "sqlite-utils installed but not on PATH"
fi

# --- data -------------------------------------------------------------------------
mkdir -p "$DATA"
# generate ROWS FILE: once, with the generator's summary (its count of distinct movies)
# beside it; a partial file never survives an interruption.
generate() {
    local rows=$1 file=$2
    [[ -s $file && -s $file.summary ]] && return
    python3 "$BENCH/gen_movies.py" --rows "$rows" --seed "$SEED" --format csv \
        --duplicates "$DUPLICATES" --out "$file.partial" 2> "$file.summary.partial"
    mv "$file.partial" "$file"
    mv "$file.summary.partial" "$file.summary"
}
SUFFIX=$( (( DUPLICATES > 0 )) && echo "-dup$DUPLICATES" || true)
CSV=$DATA/movies-$ROWS-seed$SEED$SUFFIX.csv
SAMPLE_CSV=$DATA/movies-$SAMPLE_ROWS-seed$SEED$SUFFIX.csv
generate "$ROWS" "$CSV"
[[ ${SKIP_SQLITE_UTILS:-0} == 1 ]] || generate "$SAMPLE_ROWS" "$SAMPLE_CSV"
# shuffled FILE: the file's rows in a seeded random order, header first (the generator
# quotes no line break, so a line is a row); the same movies, the same summary.
shuffled() {
    local file=$1 out=${1%.csv}-shuffled.csv
    if [[ ! -s $out ]]; then
        { head -n 1 "$file"; tail -n +2 "$file" | shuf --random-source=<(yes "$SEED"); } > "$out.partial"
        mv "$out.partial" "$out"
    fi
    cp "$file.summary" "$out.summary"
    echo "$out"
}
if [[ ${SHUFFLE:-0} == 1 ]]; then
    CSV=$(shuffled "$CSV")
    [[ ${SKIP_SQLITE_UTILS:-0} == 1 ]] || SAMPLE_CSV=$(shuffled "$SAMPLE_CSV")
fi
DISTINCT=$(sed -n 's/.*(\([0-9]*\) distinct movies.*/\1/p' "$CSV.summary")
[[ -n $DISTINCT ]] || die "no count of distinct movies in $CSV.summary; delete $CSV to regenerate it"

WORK=$(mktemp -d "$DATA/run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
RESULTS=$WORK/results.tsv
: > "$RESULTS"

# --- machine ----------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "## moviecat import benchmark"
echo
echo "- machine: $(uname -srm), ${cpu:-unknown CPU}, nproc $(nproc)," \
     "$(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
echo "- sqlite3 CLI $(sqlite3 --version | cut -d' ' -f1-2)"
echo "- python3 $(python3 -c 'import sqlite3, sys; print(sys.version.split()[0], "with SQLite", sqlite3.sqlite_version)')"
if [[ ${SKIP_MOVIECAT:-0} != 1 ]]; then
    echo "- moviecat: $MOVIECAT ($("$MOVIECAT" --version 2>&1 | head -n 1 || true)," \
         "modified $(date -r "$MOVIECAT" '+%F %T'))"
    # Run a copy, so a rebuild during the benchmark cannot mix two versions.
    cp "$MOVIECAT" "$WORK/moviecat"
    MOVIECAT=$WORK/moviecat
fi
if [[ ${SKIP_SQLITE_UTILS:-0} != 1 ]]; then
    echo "- $(sqlite-utils --version)"
fi
echo "- input: $(basename "$CSV"), $ROWS rows ($DISTINCT distinct movies), $(awk -v b="$(stat -c %s "$CSV")" 'BEGIN { printf "%.1f", b / 1048576 }') MiB; $ROUNDS rounds, alternating"
echo

# --- tools ------------------------------------------------------------------------
# Each takes a fresh database path; its output goes to a log, shown if it fails.
tool_floor() {
    sqlite3 -bail "$1" -cmd '.mode csv' ".import \"$CSV\" movies_raw"
}
tool_moviecat() {
    "$MOVIECAT" --db "$1" import "$CSV" --quiet
}
tool_normalise() {
    # Migrations (as moviecat applies on first use), then .import into a temp staging
    # table and normalise.sql's INSERT ... SELECTs, in one sqlite3 run.
    cat "$ROOT"/Migrations/[0-9][0-9][0-9][0-9]_*.sql | sqlite3 -bail "$1"
    sqlite3 -bail "$1" -cmd ".import --csv --schema temp \"$CSV\" staging" \
        < "$BENCH/normalise.sql"
}
tool_python() {
    python3 "$BENCH/py_executemany.py" "$CSV" "$1"
}
tool_sqlite_utils() {
    sqlite-utils insert "$1" movies "$SAMPLE_CSV" --csv
}
# The schema's floor: SQLite itself writing the catalog moviecat makes of this file, from
# its finished tables (a moviecat import made once, untimed, before the rounds): each table
# copied in, then every index built, and the title index's tables copied as moviecat copies
# the index its builder thread made; one transaction, WAL, as moviecat. Nothing parsed,
# validated, merged or counted: what writing this schema costs any importer.
# The catalog both start from: one moviecat import of the file, untimed, checkpointed.
prepare_source() {
    local src=$WORK/schema-source.sqlite
    [[ -s $src ]] && return
    "$MOVIECAT" --db "$src" import "$CSV" --quiet
    sqlite3 "$src" 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE' > /dev/null
}
# copy_script CREATE COPY INDEXES: the sqlite3 script that makes the tables of the source
# catalog's schema that CREATE selects, copies in those COPY selects, then builds the indexes
# INDEXES selects, in one WAL transaction with moviecat's pragmas.
copy_script() {
    local src=$WORK/schema-source.sqlite
    echo ".output /dev/null"
    echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA threads = 4;"
    echo "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;"
    echo ".output stdout"
    echo "ATTACH '$src' AS src; BEGIN;"
    sqlite3 "$src" "SELECT sql || ';' FROM sqlite_schema WHERE $1"
    # DELETE first: FTS5 puts its settings' rows into the tables it makes.
    sqlite3 "$src" "SELECT 'DELETE FROM main.' || name || '; INSERT INTO main.' || name || ' SELECT * FROM src.' || name || ';'
                      FROM sqlite_schema WHERE $2"
    sqlite3 "$src" "SELECT sql || ';' FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND ($3)"
    echo "COMMIT;"
}
prepare_schema() {
    prepare_source
    local tables="type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'movie_titles%'"
    copy_script "$tables OR name = 'movie_titles'" \
        "$tables OR name IN ('movie_titles_data', 'movie_titles_idx', 'movie_titles_config')" 1 > "$WORK/schema.sql"
}
tool_schema() {
    sqlite3 -bail "$1" < "$WORK/schema.sql"
}
# The SPEC's floor: the same, for SPEC section 2's movies, genres and movie_genres and their
# indexes alone, none of moviecat's own structures (facet rows, title index, stored counts):
# what any importer of the contract's tables pays before parsing a byte.
prepare_spec() {
    prepare_source
    local tables="type = 'table' AND name IN ('movies', 'genres', 'movie_genres')"
    copy_script "$tables" "$tables" "name IN ('movies_natural_key', 'movies_imdb_id', 'movie_genres_genre')" > "$WORK/spec.sql"
}
tool_spec() {
    sqlite3 -bail "$1" < "$WORK/spec.sql"
}
# Re-import: the same file into a copy of the catalog moviecat made of it (the copy, some
# 0.1 s, is timed too). Every row repeats a stored movie: the merge of repeats at full size.
tool_reimport() {
    cp "$WORK/schema-source.sqlite" "$1"
    "$MOVIECAT" --db "$1" import "$CSV" --quiet
}
export -f tool_floor tool_moviecat tool_normalise tool_python tool_sqlite_utils tool_schema tool_spec tool_reimport
export CSV SAMPLE_CSV MOVIECAT ROOT BENCH WORK

count() { sqlite3 "$1" "SELECT count(*) FROM $2"; }

declare -A FAILED=()
# run NAME TABLE EXPECTED_ROWS ROUND: one timed run of tool_NAME on a fresh database.
run() {
    local name=$1 table=$2 expected=$3 round=$4
    local db=$WORK/$name.sqlite log=$WORK/$name.log tf=$WORK/$name.time got secs rss start
    rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
    start=$(date +%s%N)  # wall clock in ns: GNU time's %e has only 1/100 s
    if ! /usr/bin/time -f '%M' -o "$tf" bash -c "set -euo pipefail; tool_$name \"\$1\"" _ "$db" \
            > "$log" 2>&1; then
        FAILED[$name]="exit status $(sed -n 's/^Command exited with non-zero status //p' "$tf")"
        printf '  %-14s FAILED (%s); its output:\n' "$name" "${FAILED[$name]}" >&2
        tail -n 20 "$log" | sed 's/^/    | /' >&2
        return
    fi
    secs=$(( $(date +%s%N) - start ))
    secs=$(printf '%d.%09d' $(( secs / 1000000000 )) $(( secs % 1000000000 )))
    got=$(count "$db" "$table" 2>&1) || got="no $table table ($got)"
    if [[ $got != "$expected" ]]; then
        FAILED[$name]="$table has $got rows, expected $expected"
        printf '  %-14s FAILED (%s)\n' "$name" "${FAILED[$name]}" >&2
        return
    fi
    rss=$(tail -n 1 "$tf")
    printf '%s\t%s\t%s\t%s\n' "$name" "$round" "$secs" "$rss" >> "$RESULTS"
    printf '  %-14s %7.2f s  %6d MiB\n' "$name" "$secs" $(( rss / 1024 )) >&2
    rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
}

TOOLS=(floor)
[[ ${SKIP_MOVIECAT:-0} == 1 ]] || TOOLS+=(moviecat)
if [[ ${SKIP_MOVIECAT:-0} != 1 && ${SKIP_SCHEMA_FLOOR:-0} != 1 ]]; then
    echo "the schema's floor: one moviecat import to copy from (untimed)" >&2
    prepare_schema
    prepare_spec
    TOOLS+=(spec schema)
fi
if [[ ${SKIP_MOVIECAT:-0} != 1 && ${SKIP_REIMPORT:-0} != 1 ]]; then
    echo "the re-import: one moviecat import to start from (untimed)" >&2
    prepare_source
    TOOLS+=(reimport)
fi
[[ ${SKIP_YARDSTICKS:-0} == 1 ]] || TOOLS+=(normalise python)
declare -A TABLE=([floor]=movies_raw [moviecat]=movies [normalise]=movies [python]=movies
                  [sqlite_utils]=movies [schema]=movies [spec]=movies [reimport]=movies)

for (( round = 1; round <= ROUNDS; round++ )); do
    echo "round $round/$ROUNDS" >&2
    for name in "${TOOLS[@]}"; do
        expected=$DISTINCT
        [[ $name == floor ]] && expected=$ROWS
        [[ -n ${FAILED[$name]:-} ]] || run "$name" "${TABLE[$name]}" "$expected" "$round"
    done
done
if [[ ${SKIP_SQLITE_UTILS:-0} != 1 ]]; then
    echo "sqlite-utils, once, on $SAMPLE_ROWS rows" >&2
    run sqlite_utils movies "$SAMPLE_ROWS" 1
fi
echo >&2

# --- report -----------------------------------------------------------------------
python3 - "$RESULTS" "$ROWS" "$SAMPLE_ROWS" "${!FAILED[@]}" <<'PY'
import statistics, sys
path, rows, sample = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failed = set(sys.argv[4:])
labels = {
    "floor": "sqlite3 .import (one text table, the floor)",
    "moviecat": "moviecat import",
    "spec": "sqlite3 writing SPEC section 2's tables alone (the SPEC's floor)",
    "schema": "sqlite3 writing moviecat's finished catalog (the schema's floor)",
    "reimport": "moviecat re-import (the same file into the catalog it made)",
    "normalise": "sqlite3 + normalise.sql (SQLite normalising)",
    "python": "Python sqlite3 executemany",
    "sqlite_utils": "sqlite-utils insert --csv",
}
runs = {}
for line in open(path):
    name, _, secs, rss = line.split("\t")
    runs.setdefault(name, []).append((float(secs), int(rss)))
def median(name):
    secs = statistics.median(s for s, _ in runs[name])
    return secs * rows / sample if name == "sqlite_utils" else secs
floor = median("floor") if "floor" in runs else None
print("| tool | runs | median s | rows/s | peak RSS MiB | vs sqlite3 .import |")
print("|---|---:|---:|---:|---:|---:|")
for name, label in labels.items():
    if name in failed:
        print(f"| {label} | | FAILED | | | |")
        continue
    if name not in runs:
        continue
    secs = median(name)
    rss = max(r for _, r in runs[name]) / 1024
    ratio = f"{secs / floor:.1f}x" if floor else "n/a"
    speed = f"{rows / secs:,.0f}" if secs else "n/a"
    star = " *" if name == "sqlite_utils" else ""
    print(f"| {label}{star} | {len(runs[name])} | {secs:.{2 if secs >= 1 else 3}f} | {speed} | "
          f"{rss:.0f} | {ratio} |")
if "sqlite_utils" in runs and "sqlite_utils" not in failed:
    s = runs["sqlite_utils"][0][0]
    note = ("extrapolated linearly" if sample != rows else "not extrapolated")
    print(f"\n\\* sqlite-utils ran once, on the first {sample:,} rows, in {s:.2f} s; "
          f"its time is {note} to {rows:,} rows; its RSS is that run's.")
print(f"\nmedian of the alternating wall-clock runs; rows/s = {rows:,} rows / median seconds; "
      "peak RSS = the largest of the runs (GNU time %M).")
PY

if [[ ${#FAILED[@]} -gt 0 ]]; then
    for name in "${!FAILED[@]}"; do echo "import.sh: $name failed: ${FAILED[$name]}" >&2; done
    exit 1
fi
