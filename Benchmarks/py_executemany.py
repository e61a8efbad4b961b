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
* a repeated natural key (title NOCASE, year) updates the movie (upsert, as moviecat's
  --on-duplicate update): the last row wins, genres included; the movie keeps its id
  and added_at.  New movies get id max(id) + row number, so after each batch one
  range count tells whether any of its rows were updates; only then (rarely) does it
  look movies up by natural key.

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
    sql = {
        "movie": "",  # set once the header is known
        "link": "INSERT INTO movie_genres (movie_id, genre_id) VALUES (?, ?)",
        "new_ids": "SELECT id FROM movies WHERE id BETWEEN ? AND ?",
        "key_id": "SELECT id FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ?",
        "unlink": "DELETE FROM movie_genres WHERE movie_id = ?",
    }

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
            # Columns the input has overwrite the stored ones; the others stay as they are.
            updates = [f"{column} = excluded.{column}" for field, column in (
                ("title", "title"), ("rating", "rating"), ("duration", "duration_minutes"),
                ("certification", "certification")) if field in col]
            sql["movie"] = (
                "INSERT INTO movies (id, title, year, rating, duration_minutes, certification)"
                " VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (title COLLATE NOCASE, ifnull(year, 0), ifnull(imdb_id, '')) DO UPDATE SET "
                + ", ".join(updates)
                + ", updated_at = excluded.updated_at"  # the column's default: now
            )
            sql["replace_genres"] = i_genres is not None
            movies: list[tuple] = []
            links: list[list[tuple[int, int]]] = []  # per line: (movie_id, genre_id)
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
                genre_links: list[tuple[int, int]] = []
                links.append(genre_links)
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
                        genre_links.append((movie_id, gid))
                if len(movies) >= args.batch:
                    flush(conn, sql, movies, links, args.csv, line)
            flush(conn, sql, movies, links, args.csv, reader.line_num)
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


def flush(conn, sql, movies, links, path, line) -> None:
    """Writes one batch: movies (upserted), then the genre links of its lines."""
    if not movies:
        return
    try:
        conn.executemany(sql["movie"], movies)
        first, last = movies[0][0], movies[-1][0]
        inserted = conn.execute("SELECT count(*) FROM movies WHERE id BETWEEN ? AND ?",
                                (first, last)).fetchone()[0]
        if inserted == len(movies):  # every line was a new movie: link by line id
            conn.executemany(sql["link"], (link for lk in links for link in lk))
        else:
            # Some lines updated a movie seen before: link the new ones first, then,
            # in line order, give each updated movie the genres of its line.
            new = {row[0] for row in conn.execute(sql["new_ids"], (first, last))}
            conn.executemany(sql["link"], (link for movie, lk in zip(movies, links, strict=True)
                                           if movie[0] in new for link in lk))
            for movie, lk in zip(movies, links, strict=True):
                if movie[0] in new:
                    continue
                if not sql["replace_genres"]:
                    continue
                movie_id = conn.execute(sql["key_id"], (movie[1], movie[2] or 0)).fetchone()[0]
                conn.execute(sql["unlink"], (movie_id,))
                conn.executemany(sql["link"], ((movie_id, genre_id) for _, genre_id in lk))
    except sqlite3.IntegrityError as e:
        # executemany does not say which row failed: name the batch.
        raise BadInput(f"{path}: in the {len(movies)} rows ending at line {line}: {e}") from None
    movies.clear()
    links.clear()


if __name__ == "__main__":
    sys.exit(main())
