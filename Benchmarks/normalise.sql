-- "SQLite normalising the data itself": the yardstick for `moviecat import` that does
-- the same job (flat CSV -> movies, genres, movie_genres) in SQL alone, run by the
-- sqlite3 shell.  Used by Benchmarks/import.sh; by hand:
--
--   cat Migrations/[0-9]*.sql | sqlite3 new.sqlite
--   sqlite3 -bail new.sqlite -cmd '.import --csv --schema temp movies.csv staging' \
--       < Benchmarks/normalise.sql
--
-- Expects the moviecat schema (Migrations/) in main, and the CSV in temp.staging, all
-- TEXT, columns named by its header: title, year, genres, rating, duration,
-- certification (the names gen_movies.py writes; no aliases, no --map).
--
-- What it does, as `moviecat import` would on a fresh catalog:
--   * moviecat's connection settings: foreign keys on, WAL, synchronous NORMAL;
--     one transaction;
--   * empty cell = NULL; text trimmed; year/duration to INTEGER, rating to REAL,
--     certification upper-cased; the schema's CHECK constraints (and STRICT typing)
--     abort the whole import on a bad value (no per-row report, no --skip-invalid);
--   * genres split on '|', ',' or ';' (via json_each), unknown ones added to `genres`
--     with code = lower-cased, spaces to '-' (ASCII only; moviecat's slug is richer)
--     and name as first seen;
--   * a repeated natural key (title NOCASE, year): the last row wins, genres included
--     (INSERT OR REPLACE, whose delete cascades to movie_genres).  Movie ids are
--     max(id) + row number, so they have gaps where rows repeat a movie.
-- It does not keep added_at or the id of a movie already in the catalog that the
-- input updates (REPLACE deletes and re-inserts it); the benchmark starts empty.

.bail on
.output /dev/null
PRAGMA foreign_keys = ON;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
.output stdout

BEGIN;

CREATE TEMP TABLE base AS SELECT ifnull(max(id), 0) AS n FROM main.movies;

-- Genres split out of each cell: '["a","b"]' built from 'a|b' (the cell's \ and " are
-- escaped first, so any text makes valid JSON), unnested with json_each.
CREATE TEMP VIEW staging_genres AS
SELECT s.rowid AS line,
       trim(j.value) AS name,
       lower(replace(trim(j.value), ' ', '-')) AS code
  FROM temp.staging AS s,
       json_each('["' || replace(replace(replace(replace(replace(
                     s.genres, '\', '\\'), '"', '\"'), ';', '|'), ',', '|'), '|', '","')
                 || '"]') AS j
 WHERE s.genres <> '' AND trim(j.value) <> '';

-- 1. Genres not in the catalogue yet, named as first seen.
INSERT INTO main.genres (code, name)
SELECT code, name
  FROM (SELECT code, name, min(line) AS first_line FROM temp.staging_genres
         WHERE code NOT IN (SELECT code FROM main.genres)
         GROUP BY code)
 ORDER BY first_line;

-- 2. Movies, in file order, so the last repeat of a natural key wins.
INSERT OR REPLACE INTO main.movies
       (id, title, year, rating, duration_minutes, certification)
SELECT b.n + s.rowid,
       trim(s.title),
       CAST(nullif(trim(s.year), '') AS INTEGER),
       CAST(nullif(trim(s.rating), '') AS REAL),
       CAST(nullif(trim(s.duration), '') AS INTEGER),
       upper(nullif(trim(s.certification), ''))
  FROM temp.staging AS s, temp.base AS b
 ORDER BY s.rowid;

-- 3. Genre links, for the lines whose movie survived (a replaced line has no movie).
INSERT OR IGNORE INTO main.movie_genres (movie_id, genre_id)
SELECT m.id, g.id
  FROM temp.staging_genres AS sg, temp.base AS b
  JOIN main.movies AS m ON m.id = b.n + sg.line
  JOIN main.genres AS g ON g.code = sg.code;

COMMIT;

SELECT (SELECT count(*) FROM temp.staging) AS rows_read,
       (SELECT count(*) FROM main.movies) AS movies,
       (SELECT count(*) FROM main.movie_genres) AS movie_genres,
       (SELECT count(*) FROM main.genres) AS genres;
