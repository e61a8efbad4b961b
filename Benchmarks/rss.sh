#!/usr/bin/env bash
# Peak memory of `moviecat import` against input size: the SPEC says import streams,
# so its peak RSS should stay flat from a 100k-row to a 1M-row file, in every format.
#
#   Benchmarks/rss.sh
#
# Environment:
#   SIZES="100000 1000000"   row counts to compare
#   FORMATS="csv jsonl json" input formats (gen_movies.py: csv, tsv, jsonl, json)
#   MOVIECAT=path            the binary (default .build/release/moviecat; build it
#                            first with `swift build -c release`)
#   SEED=1                   generator seed
set -euo pipefail

usage() { sed -n '2,14s/^# \{0,1\}//p' "$0"; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[[ $# -eq 0 ]] || { usage >&2; exit 64; }
read -r -a SIZES <<< "${SIZES:-100000 1000000}"
read -r -a FORMATS <<< "${FORMATS:-csv jsonl json}"
SEED=${SEED:-1}
for n in "${SIZES[@]}"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "SIZES must be positive integers, got '$n'"
done
for f in "${FORMATS[@]}"; do
    [[ $f =~ ^(csv|tsv|jsonl|json)$ ]] || die "FORMATS: unknown format '$f'"
done

cd "$ROOT"

need_tools
need_moviecat

mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/rss.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "## moviecat import: peak RSS by input size"
echo
echo "- machine: $(uname -srm), nproc $(nproc); sqlite3 CLI $(sqlite3 --version | cut -d' ' -f1)"
echo "- moviecat: $MOVIECAT ($("$MOVIECAT" --version 2>&1 | head -n 1 || true)," \
     "modified $(date -r "$MOVIECAT" '+%F %T'))"
# Run a copy, so a rebuild during the measurements cannot mix two versions.
cp "$MOVIECAT" "$WORK/moviecat"
MOVIECAT=$WORK/moviecat
echo
echo "| format | rows | file MiB | seconds | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|"

status=0
summary=()
for format in "${FORMATS[@]}"; do
    first_rss='' first_rows=''
    for rows in "${SIZES[@]}"; do
        file=$DATA/movies-$rows-seed$SEED.$format
        if [[ ! -s $file ]]; then
            python3 "$BENCH/gen_movies.py" --rows "$rows" --seed "$SEED" --format "$format" \
                --out "$file.partial" --quiet
            mv "$file.partial" "$file"
        fi
        db=$WORK/rss.sqlite
        rm -f "$db" "$db-wal" "$db-shm"
        if ! /usr/bin/time -v -o "$WORK/time.txt" \
                "$MOVIECAT" --db "$db" import "$file" --quiet > "$WORK/log" 2>&1; then
            echo "| $format | $rows | | FAILED | |"
            echo "rss.sh: moviecat import of $file failed:" >&2
            tail -n 20 "$WORK/log" | sed 's/^/    | /' >&2
            status=1
            continue
        fi
        kib=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$WORK/time.txt")
        wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' \
               "$WORK/time.txt")
        secs=$(awk -v t="$wall" 'BEGIN { n = split(t, p, ":"); s = 0;
                                         for (i = 1; i <= n; i++) s = s * 60 + p[i];
                                         printf "%.2f", s }')
        got=$(sqlite3 "$db" 'SELECT count(*) FROM movies')
        if [[ $got != "$rows" ]]; then
            echo "rss.sh: $file: movies has $got rows, expected $rows" >&2
            status=1
        fi
        printf '| %s | %d | %.1f | %s | %.1f |\n' "$format" "$rows" \
            "$(awk -v b="$(stat -c %s "$file")" 'BEGIN { print b / 1048576 }')" "$secs" \
            "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')"
        if [[ -z $first_rss ]]; then
            first_rss=$kib first_rows=$rows
        else
            summary+=("$(awk -v f="$format" -v a="$first_rss" -v b="$kib" -v r1="$first_rows" -v r2="$rows" \
                'BEGIN { printf "%s: %gx the rows, %.2fx the peak RSS", f, r2 / r1, b / a }')")
        fi
        rm -f "$db" "$db-wal" "$db-shm"
    done
done
echo
for line in "${summary[@]}"; do echo "- $line"; done
echo
echo "Peak RSS is GNU time's \"Maximum resident set size\"; each import into a fresh catalog."
exit "$status"
