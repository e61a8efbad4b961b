#!/usr/bin/env python3
"""Python yardstick for `moviecat import`: csv module + sqlite3 executemany.

    python3 Benchmarks/py_executemany.py movies.csv new.sqlite

Loads a CSV with the columns title, year, genres, rating, duration, certification
(the names gen_movies.py writes; no aliases) into the moviecat schema, doing what
Benchmarks/normalise.sql does, the way a careful Python script would:

* applies the migrations in Migrations/ that the catalog lacks (like moviecat);
* moviecat's connection settings: foreign keys on, WAL, synchronous NORMAL;
* streams the file and writes in chunks of --batch rows, one executemany for the movies
  and one for their genre links per chunk, all in one transaction (memory stays flat);
* empty cell = NULL, text trimmed, year/duration int, rating float, certification
  upper-cased; a value Python cannot convert, or one the schema's CHECK constraints
  refuse, aborts the import (rolled back) naming the line;
* genres split on '|', ',' or ';'; unknown ones are added (code = lower-case, spaces to
  '-'; name as first seen);
* a repeated natural key (title NOCASE, year): the last row wins, genres included
  (INSERT OR REPLACE; the delete cascades to movie_genres); ids are max(id) + line.

Prints "rows_read|movies|movie_genres|genres" on stdout when done, as normalise.sql does.
"""

from __future__ import annotations

import argparse
import csv
import re
import sqlite3
import sys
from pathlib import Path

FIELDS = ("title", "year", "genres", "rating", "duration", "certification")
SPLIT_GENRES = re.compile(r"[|,;]")
MIGRATIONS = Path(__file__).resolve().parent.parent / "Migrations"


class BadInput(Exception):
    """A bad input row: message names file:line."""


def migrate(conn: sqlite3.Connection, migrations: Path) -> None:
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    files = sorted(migrations.glob("[0-9][0-9][0-9][0-9]_*.sql"))
    if not files:
        raise SystemExit(f"py_executemany: no migrations in {migrations}")
    for path in files:
        if int(path.name[:4]) > current:
            conn.executescript("BEGIN;\n" + path.read_text(encoding="utf-8") + "\nCOMMIT;")


def opt(value: str):
    value = value.strip()
    return value or None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="input CSV file (RFC 4180, header row)")
    ap.add_argument("db", help="catalog file, created if missing")
    ap.add_argument("--batch", type=int, default=10_000, help="rows per executemany (10000)")
    ap.add_argument("--migrations", type=Path, default=MIGRATIONS,
                    help=f"directory of NNNN_name.sql files (default {MIGRATIONS})")
    args = ap.parse_args()

    conn = sqlite3.connect(args.db, isolation_level=None)  # we BEGIN/COMMIT ourselves
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA busy_timeout = 30000")
    migrate(conn, args.migrations)

    genre_ids = dict(conn.execute("SELECT code, id FROM genres"))
    base = conn.execute("SELECT ifnull(max(id), 0) FROM movies").fetchone()[0]
    insert_movie = (
        "INSERT OR REPLACE INTO movies "
        "(id, title, year, rating, duration_minutes, certification) VALUES (?, ?, ?, ?, ?, ?)"
    )
    # The movie of an earlier line may have been replaced by a later line of the same
    # batch: link only movies that exist (a primary-key probe, no error).
    insert_link = "INSERT INTO movie_genres (movie_id, genre_id) SELECT id, ? FROM movies WHERE id = ?"

    rows_read = 0
    conn.execute("BEGIN")
    try:
        with open(args.csv, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f, strict=True)
            header = [h.strip().lower() for h in next(reader, [])]
            if "title" not in header:
                raise BadInput(f"{args.csv}:1: no title column (found: {', '.join(header)})")
            col = {name: header.index(name) for name in FIELDS if name in header}
            i_title = col["title"]
            i_year, i_genres, i_rating, i_duration, i_cert = (
                col.get(n) for n in FIELDS[1:])
            movies: list[tuple] = []
            links: list[tuple] = []
            for record in reader:
                rows_read += 1
                line = reader.line_num
                movie_id = base + rows_read
                try:
                    year = record[i_year].strip() if i_year is not None else ""
                    rating = record[i_rating].strip() if i_rating is not None else ""
                    duration = record[i_duration].strip() if i_duration is not None else ""
                    cert = record[i_cert].strip() if i_cert is not None else ""
                    movies.append((
                        movie_id,
                        record[i_title].strip(),
                        int(year) if year else None,
                        float(rating) if rating else None,
                        int(duration) if duration else None,
                        cert.upper() if cert else None,
                    ))
                    cell = record[i_genres] if i_genres is not None else ""
                except (ValueError, IndexError) as e:
                    raise BadInput(f"{args.csv}:{line}: {e}") from None
                if cell:
                    seen = set()
                    for name in SPLIT_GENRES.split(cell):
                        name = name.strip()
                        if not name:
                            continue
                        code = name.lower().replace(" ", "-")
                        if code in seen:
                            continue
                        seen.add(code)
                        gid = genre_ids.get(code)
                        if gid is None:
                            gid = conn.execute("INSERT INTO genres (code, name) VALUES (?, ?)",
                                               (code, name)).lastrowid
                            genre_ids[code] = gid
                        links.append((gid, movie_id))
                if len(movies) >= args.batch:
                    flush(conn, insert_movie, insert_link, movies, links, args.csv, line)
            flush(conn, insert_movie, insert_link, movies, links, args.csv, reader.line_num)
        conn.execute("COMMIT")
    except (BadInput, sqlite3.Error, csv.Error, UnicodeDecodeError) as e:
        conn.execute("ROLLBACK")
        print(f"py_executemany: error: {e}", file=sys.stderr)
        return 65
    counts = conn.execute(
        "SELECT (SELECT count(*) FROM movies), (SELECT count(*) FROM movie_genres),"
        " (SELECT count(*) FROM genres)").fetchone()
    conn.close()
    print("|".join(str(n) for n in (rows_read, *counts)))
    return 0


def flush(conn, insert_movie, insert_link, movies, links, path, line) -> None:
    try:
        conn.executemany(insert_movie, movies)
        conn.executemany(insert_link, links)
    except sqlite3.IntegrityError as e:
        # executemany does not say which row failed: name the batch.
        first = line - len(movies) + 1
        raise BadInput(f"{path}: rows ending at line {line} (batch from about line "
                           f"{first}): {e}") from None
    movies.clear()
    links.clear()


if __name__ == "__main__":
    sys.exit(main())
