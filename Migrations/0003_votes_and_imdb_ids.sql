-- moviecat schema, version 3: votes and IMDb ids; a movie's identity includes its IMDb id.
-- Applied by moviecat in one transaction; also runnable as `sqlite3 catalog.sqlite < 0003_votes_and_imdb_ids.sql`.
-- It rebuilds tables (SQLite cannot add a column in the middle or change a CHECK), so it runs with
-- foreign keys off, as the sqlite3 shell has them: moviecat turns them off for its migrations and
-- runs PRAGMA foreign_key_check before committing each one.

-- movies gains votes (after rating) and imdb_id; ids and every value are kept.
CREATE TABLE movies_v3 (
    id               INTEGER PRIMARY KEY,
    title            TEXT NOT NULL
                     CHECK (title <> '' AND title = trim(title)),      -- stored trimmed, never blank
    year             INTEGER CHECK (year BETWEEN 1870 AND 2100),       -- release year
    rating           REAL    CHECK (rating BETWEEN 0 AND 10),          -- 0..10, e.g. IMDb average
    votes            INTEGER CHECK (votes >= 0),                       -- how many rated it (IMDb numVotes)
    duration_minutes INTEGER CHECK (duration_minutes > 0),
    certification    TEXT    CHECK (certification = upper(certification)), -- e.g. PG-13
    imdb_id          TEXT    CHECK (imdb_id GLOB 'tt[0-9][0-9][0-9][0-9][0-9][0-9][0-9]*'
                                    AND substr(imdb_id, 3) NOT GLOB '*[^0-9]*'), -- tt0111161
    -- Unix seconds (compact for millions of rows); read with datetime(added_at, 'unixepoch').
    added_at         INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    updated_at       INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
) STRICT;
INSERT INTO movies_v3 (id, title, year, rating, duration_minutes, certification, added_at, updated_at)
SELECT id, title, year, rating, duration_minutes, certification, added_at, updated_at FROM movies;
-- A view or trigger of a sqlite3 user's naming movies, movie_list or preset_filters would fail
-- the renames below (SQLite checks every view and trigger against the schema as it renames, and
-- these tables are gone for a moment): the legacy rename checks none, and the names they use are
-- back when it is done.
PRAGMA legacy_alter_table = ON;
DROP VIEW movie_list;
DROP TABLE movies;
ALTER TABLE movies_v3 RENAME TO movies;

-- The natural key: title ignoring (ASCII) case, year and IMDb id, where a missing year or id is
-- one value. Two films may share a title and year when their ids differ (IMDb has several
-- Hamlet (1948)-like pairs). It drives de-duplication and serves the default sort.
CREATE UNIQUE INDEX movies_natural_key ON movies (title COLLATE NOCASE, ifnull(year, 0), ifnull(imdb_id, ''));
-- A movie's identity where a list carries it. Partial: movies without an id cost it nothing
-- (`imdb_id = ?` still uses it); named, so a bulk import can rebuild it by sorting.
CREATE UNIQUE INDEX movies_imdb_id ON movies (imdb_id) WHERE imdb_id IS NOT NULL;

-- Presets may select votes and imdb: the facet CHECK changes, so the table is rebuilt.
CREATE TABLE preset_filters_v3 (
    preset_id INTEGER NOT NULL REFERENCES presets (id) ON DELETE CASCADE,
    facet     TEXT NOT NULL CHECK (facet IN ('genre', 'exclude-genre', 'rating', 'duration',
                                             'year', 'certification', 'title', 'votes', 'imdb')),
    value     TEXT NOT NULL CHECK (value <> ''),                      -- canonical filter value
    PRIMARY KEY (preset_id, facet, value)
) STRICT, WITHOUT ROWID;
INSERT INTO preset_filters_v3 (preset_id, facet, value) SELECT preset_id, facet, value FROM preset_filters;
DROP TABLE preset_filters;
ALTER TABLE preset_filters_v3 RENAME TO preset_filters;
PRAGMA legacy_alter_table = OFF;

-- One row per movie with its genre names joined, for people at the sqlite3 prompt.
CREATE VIEW movie_list AS
SELECT m.id, m.title, m.year,
       (SELECT group_concat(name, ', ')
          FROM (SELECT g.name FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
                 WHERE mg.movie_id = m.id ORDER BY g.name)) AS genres,
       m.rating, m.votes, m.duration_minutes, m.certification, m.imdb_id
  FROM movies m;

PRAGMA user_version = 3;
