#!/usr/bin/env bash
# Query benchmark ("IMDb scale, interactive"): `moviecat filter` and `moviecat facets`
# against the `sqlite3` shell running the plain SQL a person would write, on the same
# catalog file, alternating runs.  See Benchmarks/README.md.
#
#   Benchmarks/query.sh [ROWS...]      ROWS default to 1000000 10000000
#
# Environment:
#   ROUNDS=5               timed runs of each side per query (median reported)
#   REPEATS=5              --duplicates of the generator: 5 (few repeats) or 50 (many:
#                          about half the rows repeat a title and year)
#   MOVIECAT=path          the binary (default .build/release/moviecat; build it
#                          first with `swift build -c release`)
#   QUICK=1                100000 rows, one round: checks that everything works (for
#                          CI; asserts exit codes and equal results only, never times)
set -euo pipefail

usage() { sed -n '2,15s/^# \{0,1\}//p' "$0"; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
if [[ ${QUICK:-0} == 1 ]]; then
    [[ $# -eq 0 ]] || die "QUICK=1 runs 100000 rows; give no ROWS with it"
    SIZES=(100000) ROUNDS=1
else
    SIZES=("$@")
    [[ $# -gt 0 ]] || SIZES=(1000000 10000000)
    ROUNDS=${ROUNDS:-5}
fi
REPEATS=${REPEATS:-5}
for n in "${SIZES[@]}"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "ROWS must be positive integers, got '$n'"
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"
[[ $REPEATS =~ ^(5|50)$ ]] || die "REPEATS must be 5 or 50, got '$REPEATS'"

cd "$ROOT"

# --- prerequisites ---------------------------------------------------------------
need_tools
need_moviecat "$@"

mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/query-run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
RESULTS=$WORK/results.tsv   # catalog, query, side, secs, rss KiB: one line a timed run
ROWS_TSV=$WORK/rows.tsv     # catalog, query, status: the table's rows, in order
: > "$RESULTS"
: > "$ROWS_TSV"

# --- machine ----------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
libsqlite=$(ldd "$MOVIECAT" 2>/dev/null | awk '/libsqlite3/ { print $3 }' || true)
libsqlite=${libsqlite:+$(readlink -f "$libsqlite")}
echo "## moviecat query benchmark (IMDb scale, interactive)"
echo
echo "- machine: nproc $(nproc), ${cpu:-unknown CPU}," \
     "$(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)," \
     "SQLite $(sqlite3 --version | cut -d' ' -f1) (sqlite3 CLI${libsqlite:+; moviecat links $libsqlite})"
echo "- moviecat: $MOVIECAT ($("$MOVIECAT" --version 2>&1 | head -n 1 || true)," \
     "modified $(date -r "$MOVIECAT" '+%F %T'))"
# Run a copy, so a rebuild during the benchmark cannot mix two versions.
cp "$MOVIECAT" "$WORK/moviecat"
MOVIECAT=$WORK/moviecat
echo "- catalogs: $(printf '%s ' "${SIZES[@]}")rows, --duplicates $REPEATS;" \
     "rounds: $ROUNDS, alternating (moviecat, sqlite3, moviecat, ...) after one untimed run of each"
echo

# --- catalogs ---------------------------------------------------------------------
# catalog ROWS: prints the path of the catalog of ROWS generated rows, made once with
# the generator and `moviecat import` and reused; its .info file beside it holds the
# number of movies and the least frequent genre (a full scan at 10M rows: done once).
catalog() {
    local rows=$1 base=$DATA/query-$1-dup$REPEATS
    local db=$base.sqlite info=$base.info
    if [[ ! -s $db ]]; then
        echo "making $(basename "$db") (generator, then moviecat import)" >&2
        rm -f "$base.partial.sqlite" "$base.partial.sqlite-wal" "$base.partial.sqlite-shm"
        python3 "$BENCH/gen_movies.py" --rows "$rows" --format csv --duplicates "$REPEATS" \
            --out "$WORK/movies.csv" 2> "$WORK/gen.log"
        cat "$WORK/gen.log" >&2
        "$MOVIECAT" --db "$base.partial.sqlite" import "$WORK/movies.csv" --quiet >&2 \
            || die "moviecat import of $rows generated rows failed"
        # The generator counts the distinct (title, year) keys: the catalog must hold them.
        local want got
        want=$(sed -n 's/.*(\([0-9]*\) distinct movies.*/\1/p' "$WORK/gen.log")
        got=$(sqlite3 "$base.partial.sqlite" 'SELECT count(*) FROM movies')
        [[ $got == "$want" ]] || die "the imported catalog has $got movies, the generator made $want"
        rm -f "$WORK/movies.csv"   # 55 MiB a million rows; only the catalog is reused
        # Renamed into place only when whole: present means complete.
        mv "$base.partial.sqlite" "$db"
        rm -f "$info"
    fi
    if [[ ! -s $info ]]; then
        sqlite3 -bail "$db" "SELECT (SELECT count(*) FROM movies), (SELECT g.code FROM genres g
            JOIN movie_genres mg ON mg.genre_id = g.id GROUP BY g.id ORDER BY count(*), g.code
            LIMIT 1);" > "$info.partial"
        mv "$info.partial" "$info"
    fi
    echo "$db"
}

# --- runs -------------------------------------------------------------------------
FAILED=0
fail() {  # CATALOG QUERY MESSAGE: the row shows FAILED, the script exits 1 at the end
    printf '  FAILED: %s: %s: %s\n' "$1" "$2" "$3" >&2
    printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$WORK/failures.tsv"
    FAILED=1
}

# once OUT CMD...: an untimed run, its stdout kept in OUT (warms the page cache, and is
# what the results are compared on).
once() {
    local out=$1; shift
    "$@" > "$out" 2> "$WORK/err" || { local rc=$?; tail -n 5 "$WORK/err" >&2; return "$rc"; }
}

# timed CATALOG QUERY SIDE CMD...: one timed run, stdout discarded; wall clock to the
# nanosecond around it (GNU time's %e has only 1/100 s), peak RSS from GNU time.
timed() {
    local cat=$1 query=$2 side=$3 start secs; shift 3
    start=$(date +%s%N)
    if ! /usr/bin/time -f '%M' -o "$WORK/time" "$@" > /dev/null 2> "$WORK/err"; then
        tail -n 5 "$WORK/err" >&2
        return 1
    fi
    secs=$(( $(date +%s%N) - start ))
    secs=$(printf '%d.%09d' $(( secs / 1000000000 )) $(( secs % 1000000000 )))
    printf '%s\t%s\t%s\t%s\t%s\n' "$cat" "$query" "$side" "$secs" "$(tail -n 1 "$WORK/time")" \
        >> "$RESULTS"
}

# The checks, on the untimed runs' outputs: where moviecat and sqlite3 compute the same
# thing, they must agree.
check_ids() {  # MOVIECAT_CSV SQLITE_LIST: the same ids in the same order
    local a b
    a=$(tail -n +2 "$1" | cut -d, -f1 | tr '\n' ' ')
    b=$(cut -d'|' -f1 "$2" | tr '\n' ' ')
    [[ $a == "$b" ]] || { echo "ids differ: moviecat [$a] sqlite3 [$b]"; return 1; }
    echo "same $(wc -l < "$2") ids in the same order"
}
check_count() {  # MOVIECAT_OUT SQLITE_OUT
    local a b
    a=$(tr -d '[:space:]' < "$1") b=$(tr -d '[:space:]' < "$2")
    [[ -n $a && $a == "$b" ]] || { echo "counts differ: moviecat '$a' sqlite3 '$b'"; return 1; }
    echo "same count, $a"
}
check_facets() {  # MOVIECAT_JSON SQLITE_LIST [SELECTED_COUNT]
    # sqlite3 rows are facet|bucket|count; its NULL buckets (no value) are not facet
    # values, nor are moviecat's selected ranges ("7..") or zero counts; the selected
    # ranges' counts must equal the filter's count when one is given.
    python3 - "$@" <<'PY'
import json, sys
mc = json.load(open(sys.argv[1]))
selected = int(sys.argv[3]) if len(sys.argv) > 3 else None
ours, bad = set(), []
for facet, values in mc.items():
    for v in values:
        if ".." in v["value"]:
            if selected is not None and v["count"] != selected:
                bad.append(f"moviecat {facet} {v['value']} = {v['count']}, filter --count {selected}")
        elif v["count"]:
            ours.add((facet, v["value"], v["count"]))
fmt = {"genre": "{}", "rating": "{}", "duration": "{}h", "year": "{}s", "certification": "{}"}
theirs = set()
for line in open(sys.argv[2]):
    facet, bucket, count = line.rstrip("\n").split("|")
    if bucket != "":
        theirs.add((facet, fmt[facet].format(bucket), int(count)))
for x in sorted(ours - theirs):
    bad.append(f"only moviecat: {x}")
for x in sorted(theirs - ours):
    bad.append(f"only sqlite3: {x}")
if bad:
    print("facets differ: " + "; ".join(bad))
    sys.exit(1)
print(f"same {len(ours)} facet values and counts")
PY
}

# bench CATALOG_LABEL DB QUERY CHECK MOVIECAT_ARGS SQL [CHECK_ARG]: the untimed run of
# each side, the check, then ROUNDS alternating timed runs.
bench() {
    local label=$1 db=$2 query=$3 check=$4 args=$5 sql=$6 extra=${7:-} msg side
    local -a mc
    read -r -a mc <<< "$args"
    local mout=$WORK/mc.out sout=$WORK/sq.out
    printf '%s\t%s\n' "$label" "$query" >> "$ROWS_TSV"
    echo "  $query" >&2
    once "$mout" "$MOVIECAT" --db "$db" "${mc[@]}" \
        || { fail "$label" "$query" "moviecat exited $?"; return; }
    once "$sout" sqlite3 -bail "$db" "$sql" \
        || { fail "$label" "$query" "sqlite3 exited $?"; return; }
    if msg=$("check_$check" "$mout" "$sout" $extra); then
        echo "    check: $msg" >&2
    else
        fail "$label" "$query" "$msg"
    fi
    # Keep each side's output for the queries that follow (the broad count feeds the
    # facets check).
    cp "$mout" "$WORK/$query.mc"; cp "$sout" "$WORK/$query.sq"
    for (( round = 1; round <= ROUNDS; round++ )); do
        for side in moviecat sqlite3; do
            if [[ $side == moviecat ]]; then
                timed "$label" "$query" moviecat "$MOVIECAT" --db "$db" "${mc[@]}"
            else
                timed "$label" "$query" sqlite3 sqlite3 -bail "$db" "$sql"
            fi || { fail "$label" "$query" "$side exited non-zero in round $round"; return; }
        done
    done
}

# --- the queries ------------------------------------------------------------------
# The broad set: action or drama, rated 7 or more, 90 to 150 minutes.
BROAD_ARGS="--genre action,drama --rating 7.. --duration 90m..150m"
IN_GENRES="m.id IN (SELECT mg.movie_id FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE g.code IN ('action','drama'))"
RATED="m.rating >= 7"
LENGTH="m.duration_minutes BETWEEN 90 AND 150"
COLUMNS="m.id, m.title, m.year, m.rating, m.votes, m.duration_minutes, m.certification, m.imdb_id"
JOINED="movies m JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id"
# moviecat's order after the sort key (README, filter: title, then year; then the rest
# of the natural key and the id), so both sides list the same 50 among ties.
TIEBREAK="m.title COLLATE NOCASE, ifnull(m.year, 0), ifnull(m.imdb_id, ''), m.id"
# A substring of generated titles (gen_movies.py's NOUNS: Heart, Hearts).
TITLE_PART=heart

# facet_sql GENRE_WHERE RATING_WHERE DURATION_WHERE ALL_WHERE: the five plain GROUP BYs,
# each under the other facets' conditions (disjunctive), one result row facet|bucket|count.
facet_sql() {
    local links="movie_genres mg JOIN genres g ON g.id = mg.genre_id"
    [[ -z $1 ]] || links=$JOINED
    cat <<SQL
SELECT 'genre', g.code, count(*) FROM $links $1 GROUP BY g.code;
SELECT 'rating', CAST(m.rating AS INTEGER) AS bucket, count(*) FROM movies m $2 GROUP BY bucket;
SELECT 'duration', m.duration_minutes / 60 AS bucket, count(*) FROM movies m $3 GROUP BY bucket;
SELECT 'year', m.year / 10 * 10 AS bucket, count(*) FROM movies m $4 GROUP BY bucket;
SELECT 'certification', m.certification, count(*) FROM movies m $4 GROUP BY m.certification;
SQL
}

group() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<< "$1"; }  # 1000000 -> 1,000,000

for rows in "${SIZES[@]}"; do
    db=$(catalog "$rows")
    read -r movies rare < <(tr '|' ' ' < "${db%.sqlite}.info")
    case $REPEATS in 5) kind="few repeats" ;; 50) kind="many repeats" ;; esac
    label="$(group "$rows") rows, $kind ($REPEATS %): $(group "$movies") movies"
    echo "catalog $(basename "$db"): $label; rarest genre $rare" >&2

    for key in rating year votes duration title; do
        if [[ $key == title ]]; then
            bench "$label" "$db" "top 50 by title" ids "filter $BROAD_ARGS --sort title --limit 50 --format csv" \
                "SELECT DISTINCT $COLUMNS FROM $JOINED WHERE g.code IN ('action','drama') AND $RATED AND $LENGTH ORDER BY m.title COLLATE NOCASE, m.year LIMIT 50;"
        else
            [[ $key == duration ]] && col=duration_minutes || col=$key
            bench "$label" "$db" "top 50 by $key desc" ids "filter $BROAD_ARGS --sort $key --desc --limit 50 --format csv" \
                "SELECT DISTINCT $COLUMNS FROM $JOINED WHERE g.code IN ('action','drama') AND $RATED AND $LENGTH ORDER BY m.$col DESC, $TIEBREAK LIMIT 50;"
        fi
    done
    # The first screen: nothing selected (the broadest set), by title and newest or best first.
    bench "$label" "$db" "top 50, nothing selected, by title" ids "filter --limit 50 --format csv" \
        "SELECT $COLUMNS FROM movies m ORDER BY $TIEBREAK LIMIT 50;"
    for key in year rating; do
        bench "$label" "$db" "top 50, nothing selected, by $key desc" ids "filter --sort $key --desc --limit 50 --format csv" \
            "SELECT $COLUMNS FROM movies m ORDER BY m.$key DESC, $TIEBREAK LIMIT 50;"
    done
    bench "$label" "$db" "count" count "filter $BROAD_ARGS --count" \
        "SELECT count(*) FROM movies m WHERE $IN_GENRES AND $RATED AND $LENGTH;"
    bench "$label" "$db" "count, rating 5.. alone" count "filter --rating 5.. --count" \
        "SELECT count(*) FROM movies WHERE rating >= 5;"
    bench "$label" "$db" "count, nothing selected" count "filter --count" "SELECT count(*) FROM movies;"
    # An export: every column, genres too (the plain SQL gathers them as filter does).
    bench "$label" "$db" "export 100,000 best rated as CSV" ids "filter --sort rating --desc --limit 100000 --format csv" \
        "SELECT $COLUMNS, (SELECT group_concat(code, '|') FROM (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = m.id ORDER BY g.code)) FROM movies m ORDER BY m.rating DESC, $TIEBREAK LIMIT 100000;"
    bench "$label" "$db" "top 3 of common facets' rare combination" ids \
        "filter --genre war --year 2023.. --rating 9.7.. --duration ..60m --limit 3 --format csv" \
        "SELECT DISTINCT $COLUMNS FROM $JOINED WHERE g.code IN ('war') AND m.year >= 2023 AND m.rating >= 9.7 AND m.duration_minutes <= 60 ORDER BY $TIEBREAK LIMIT 3;"
    bench "$label" "$db" "top 50 selective ($rare, rating 9..)" ids \
        "filter --genre $rare --rating 9.. --sort rating --desc --limit 50 --format csv" \
        "SELECT DISTINCT $COLUMNS FROM $JOINED WHERE g.code IN ('$rare') AND m.rating >= 9 ORDER BY m.rating DESC, $TIEBREAK LIMIT 50;"
    bench "$label" "$db" "facets, broad set" facets "facets $BROAD_ARGS --format json" \
        "$(facet_sql "WHERE $RATED AND $LENGTH" "WHERE $IN_GENRES AND $LENGTH" \
            "WHERE $IN_GENRES AND $RATED" "WHERE $IN_GENRES AND $RATED AND $LENGTH")" \
        "$(tr -d '[:space:]' < "$WORK/count.sq" 2>/dev/null || true)"
    bench "$label" "$db" "facets, nothing selected" facets "facets --format json" "$(facet_sql "" "" "" "")"
    bench "$label" "$db" "title contains '$TITLE_PART'" count "filter --title $TITLE_PART --count" \
        "SELECT count(*) FROM movies WHERE title LIKE '%$TITLE_PART%';"
    bench "$label" "$db" "title contains '$TITLE_PART', top 50 by title" ids "filter --title $TITLE_PART --limit 50 --format csv" \
        "SELECT $COLUMNS FROM movies m WHERE m.title LIKE '%$TITLE_PART%' ORDER BY $TIEBREAK LIMIT 50;"
done

# Start-up: the 13 demo movies, so the process start and opening the catalog are all.
echo "catalog init --seed" >&2
SEED_DB=$WORK/seed.sqlite
"$MOVIECAT" --db "$SEED_DB" init --seed > /dev/null 2>&1 || die "moviecat init --seed failed"
bench "init --seed: 13 movies" "$SEED_DB" "start-up: count" count "filter --count" "SELECT count(*) FROM movies"
echo >&2

# --- report -----------------------------------------------------------------------
[[ -f $WORK/failures.tsv ]] || : > "$WORK/failures.tsv"
python3 - "$RESULTS" "$ROWS_TSV" "$WORK/failures.tsv" <<'PY'
import statistics, sys
results, rows, failures = sys.argv[1:4]
runs = {}
for line in open(results):
    cat, query, side, secs, rss = line.rstrip("\n").split("\t")
    runs.setdefault((cat, query, side), []).append((float(secs), int(rss)))
failed = {tuple(l.split("\t")[:2]) for l in open(failures) if l.strip()}
def fmt(s):
    return f"{s:.2f}" if s >= 1 else f"{s:.3f}"
print("| catalog (rows, repeats) | query | moviecat median s | min–max | sqlite3 median s "
      "| min–max | ratio | moviecat peak RSS MiB |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for line in open(rows):
    cat, query = line.rstrip("\n").split("\t")
    mc, sq = runs.get((cat, query, "moviecat")), runs.get((cat, query, "sqlite3"))
    if (cat, query) in failed or not mc or not sq:
        print(f"| {cat} | {query} | FAILED | | | | | |")
        continue
    ms, ss = [s for s, _ in mc], [s for s, _ in sq]
    m, s = statistics.median(ms), statistics.median(ss)
    rss = max(r for _, r in mc) / 1024
    print(f"| {cat} | {query} | {fmt(m)} | {fmt(min(ms))}–{fmt(max(ms))} | {fmt(s)} | "
          f"{fmt(min(ss))}–{fmt(max(ss))} | {m / s:.2f}x | {rss:.0f} |")
print("\nmedian and range of the alternating wall-clock runs (process start included; "
      "stdout discarded); ratio = moviecat median / sqlite3 median; peak RSS = the largest "
      "of moviecat's runs (GNU time %M).")
PY

if [[ $FAILED == 1 ]]; then
    echo "query.sh: failures:" >&2
    sed 's/\t/: /g; s/^/  /' "$WORK/failures.tsv" >&2
    exit 1
fi
