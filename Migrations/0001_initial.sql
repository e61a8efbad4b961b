-- moviecat schema, version 1.
-- Applied by moviecat in one transaction; also runnable as `sqlite3 catalog.sqlite < 0001_initial.sql`.

CREATE TABLE movies (
    id               INTEGER PRIMARY KEY,
    title            TEXT NOT NULL
                     CHECK (title <> '' AND title = trim(title)),      -- stored trimmed, never blank
    year             INTEGER CHECK (year BETWEEN 1870 AND 2100),       -- release year
    rating           REAL    CHECK (rating BETWEEN 0 AND 10),          -- 0..10, e.g. IMDb average
    duration_minutes INTEGER CHECK (duration_minutes > 0),
    certification    TEXT    CHECK (certification = upper(certification)), -- e.g. PG-13
    -- Unix seconds (compact for millions of rows); read with datetime(added_at, 'unixepoch').
    added_at         INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    updated_at       INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
) STRICT;

-- The natural key: title ignoring (ASCII) case, plus year, where a missing year is one value.
-- It drives de-duplication on import and serves the default sort (title, then year).
CREATE UNIQUE INDEX movies_natural_key ON movies (title COLLATE NOCASE, ifnull(year, 0));
-- One narrow covering index for the numeric facets: year ranges seek on it, and facet counts
-- and other filters scan it instead of the wide table (one index build instead of four on import).
CREATE INDEX movies_facets ON movies (year, rating, duration_minutes, certification);

CREATE TABLE genres (
    id   INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE CHECK (code <> '' AND code = lower(code)), -- slug, e.g. sci-fi
    name TEXT NOT NULL CHECK (name <> '')                                -- display form, e.g. Sci-Fi
) STRICT;

CREATE TABLE movie_genres (
    movie_id INTEGER NOT NULL REFERENCES movies (id) ON DELETE CASCADE,
    genre_id INTEGER NOT NULL REFERENCES genres (id),
    PRIMARY KEY (movie_id, genre_id)
) STRICT, WITHOUT ROWID;
-- Drives genre filters and genre facet counts.
CREATE INDEX movie_genres_genre ON movie_genres (genre_id, movie_id);

-- A saved filter set: one preset_filters row per element, e.g. ('genre', 'drama').
CREATE TABLE presets (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
    created_at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),  -- Unix seconds
    updated_at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
) STRICT;

CREATE TABLE preset_filters (
    preset_id INTEGER NOT NULL REFERENCES presets (id) ON DELETE CASCADE,
    facet     TEXT NOT NULL CHECK (facet IN ('genre', 'exclude-genre', 'rating', 'duration',
                                             'year', 'certification', 'title')),
    value     TEXT NOT NULL CHECK (value <> ''),                      -- canonical filter value
    PRIMARY KEY (preset_id, facet, value)
) STRICT, WITHOUT ROWID;

-- One row per movie with its genre names joined, for people at the sqlite3 prompt.
CREATE VIEW movie_list AS
SELECT m.id, m.title, m.year,
       (SELECT group_concat(name, ', ')
          FROM (SELECT g.name FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
                 WHERE mg.movie_id = m.id ORDER BY g.name)) AS genres,
       m.rating, m.duration_minutes, m.certification
  FROM movies m;

-- The standard genre catalogue every catalog knows.
INSERT INTO genres (code, name) VALUES
    ('action', 'Action'), ('adventure', 'Adventure'), ('animation', 'Animation'),
    ('biography', 'Biography'), ('comedy', 'Comedy'), ('crime', 'Crime'),
    ('documentary', 'Documentary'), ('drama', 'Drama'), ('family', 'Family'),
    ('fantasy', 'Fantasy'), ('history', 'History'), ('horror', 'Horror'),
    ('music', 'Music'), ('musical', 'Musical'), ('mystery', 'Mystery'),
    ('romance', 'Romance'), ('sci-fi', 'Sci-Fi'), ('short', 'Short'), ('sport', 'Sport'),
    ('thriller', 'Thriller'), ('war', 'War'), ('western', 'Western');

PRAGMA user_version = 1;
