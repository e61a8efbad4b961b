# Sourced by the benchmark scripts, at their top: `die`, their paths, and the tools they need.
# It changes no directory: a script checks its arguments first (its --help reads "$0"), then
# does `cd "$ROOT"`.

die() { printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)    # this folder
ROOT=$(dirname "$BENCH")                                # the repository
MOVIECAT=${MOVIECAT:-.build/release/moviecat}            # relative to ROOT
DATA=$BENCH/data                                        # generated files, git-ignored

# need_tools: python3, the sqlite3 shell and GNU time (peak memory), else how to get them.
need_tools() {
    command -v python3 >/dev/null || die "python3 not found"
    command -v sqlite3 >/dev/null || die "sqlite3 not found (apt-get install sqlite3)"
    /usr/bin/time -f '%e' true 2>/dev/null \
        || die "GNU time not found at /usr/bin/time (apt-get install time)"
}

# need_moviecat ARGS...: the binary, else how to build it; ARGS (the script's) and MORE_HINTS
# (further lines) go into the message.
need_moviecat() {
    [[ -x $MOVIECAT ]] || die "moviecat binary not found at '$MOVIECAT'.
  Build it first:   swift build -c release
  or point to one:  MOVIECAT=/path/to/moviecat $0${*:+ $*}${MORE_HINTS:-}"
}
