-- moviecat schema, version 7: movie_stale, a log of the movies whose derived rows (movie_facets,
-- movie_titles, movie_title_exceptions) a write may have left wrong where the triggers of
-- versions 4 and 6 cannot follow it. moviecat recomputes those rows when it next opens the
-- catalog, and empties the log. Two kinds of writes are logged:
--   * INSERT OR REPLACE and UPDATE OR REPLACE on movies. A row that REPLACE deletes to make
--     room fires no delete trigger (unless PRAGMA recursive_triggers is on, which the sqlite3
--     shell never has), so its facet row would stay and be counted. The BEFORE triggers below
--     log the stored rows a write's new values collide with on movies' unique keys (the id, the
--     natural key, the IMDb id): three index probes. A trigger cannot tell REPLACE from the other
--     conflict policies, so it logs them all; a write that aborts takes its log rows back with
--     it, an ignored one leaves a row that costs a needless recompute and nothing else.
--   * A facet or exception row deleted or renumbered by hand while its movie still needs it
--     (moviecat deletes them only with their movies, and never renumbers them).
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0007_derived_repair.sql`. Safe to run again: it drops its triggers
-- first and keeps a log that is already there.
CREATE TABLE IF NOT EXISTS movie_stale (
    id    INTEGER NOT NULL,                         -- movies.id; the movie may be gone
    title TEXT                                      -- a title movie_titles may hold for it; NULL: none
) STRICT;
-- The title triggers below clear a logged title by id: without it each would scan the log.
CREATE INDEX IF NOT EXISTS movie_stale_id ON movie_stale (id);

DROP TRIGGER IF EXISTS movie_stale_on_insert;
DROP TRIGGER IF EXISTS movie_stale_on_update;
DROP TRIGGER IF EXISTS movie_stale_on_facet_delete;
DROP TRIGGER IF EXISTS movie_stale_on_facet_renumber;
DROP TRIGGER IF EXISTS movie_stale_on_exception_delete;
DROP TRIGGER IF EXISTS movie_stale_on_exception_renumber;

-- Facet rows that REPLACE left behind before this version, when nothing logged them.
DELETE FROM movie_facets WHERE NOT EXISTS (SELECT 1 FROM movies m WHERE m.id = movie_facets.id);

-- An id SQLite is yet to choose shows as -1 here, so an insert without an id logs a movie -1
-- for nothing (a needless recompute); one that gives -1 may well replace it. UNION: a row that
-- collides on two keys is logged once.
CREATE TRIGGER movie_stale_on_insert BEFORE INSERT ON movies BEGIN
    INSERT INTO movie_stale (id, title)
    SELECT id, title FROM movies WHERE id = NEW.id
    UNION
    SELECT id, title FROM movies
     WHERE title = NEW.title COLLATE NOCASE AND ifnull(year, 0) = ifnull(NEW.year, 0)
       AND ifnull(imdb_id, '') = ifnull(NEW.imdb_id, '')
    UNION
    SELECT id, title FROM movies WHERE imdb_id = NEW.imdb_id;
END;

-- Only writes that change a key can collide (an update of ratings and votes does not fire it).
CREATE TRIGGER movie_stale_on_update BEFORE UPDATE OF id, title, year, imdb_id ON movies
WHEN NEW.id IS NOT OLD.id OR NEW.title IS NOT OLD.title OR NEW.year IS NOT OLD.year
  OR NEW.imdb_id IS NOT OLD.imdb_id BEGIN
    INSERT INTO movie_stale (id, title)
    SELECT id, title FROM movies WHERE id = NEW.id AND id <> OLD.id
    UNION
    SELECT id, title FROM movies
     WHERE title = NEW.title COLLATE NOCASE AND ifnull(year, 0) = ifnull(NEW.year, 0)
       AND ifnull(imdb_id, '') = ifnull(NEW.imdb_id, '') AND id <> OLD.id
    UNION
    SELECT id, title FROM movies WHERE imdb_id = NEW.imdb_id AND id <> OLD.id;
END;

CREATE TRIGGER movie_stale_on_facet_delete AFTER DELETE ON movie_facets
WHEN EXISTS (SELECT 1 FROM movies WHERE id = OLD.id) BEGIN
    INSERT INTO movie_stale (id) VALUES (OLD.id);
END;

CREATE TRIGGER movie_stale_on_facet_renumber AFTER UPDATE OF id ON movie_facets
WHEN NEW.id IS NOT OLD.id BEGIN
    INSERT INTO movie_stale (id) VALUES (OLD.id), (NEW.id);
END;

CREATE TRIGGER movie_stale_on_exception_delete AFTER DELETE ON movie_title_exceptions
WHEN EXISTS (SELECT 1 FROM movies WHERE id = OLD.id AND (instr(title, char(8490)) OR instr(title, char(304)))) BEGIN
    INSERT INTO movie_stale (id) VALUES (OLD.id);
END;

CREATE TRIGGER movie_stale_on_exception_renumber AFTER UPDATE OF id ON movie_title_exceptions
WHEN NEW.id IS NOT OLD.id BEGIN
    INSERT INTO movie_stale (id) VALUES (OLD.id), (NEW.id);
END;

-- Version 6's title triggers, changed so that a title they take out of movie_titles is no
-- longer logged as one to take out: the repair's 'delete' of a title the index no longer holds
-- would take FTS5's row count and token totals below zero, which it reports as a corrupt index
-- (an UPSERT or INSERT OR IGNORE logs the row it meets, and may then retitle it, or a later
-- DELETE remove it). And so that a movie keeping its id and one of the two letters keeps its
-- exception row (deleting it would be logged above), and an exception row already there is no
-- conflict.
DROP TRIGGER IF EXISTS movie_titles_delete;
CREATE TRIGGER movie_titles_delete AFTER DELETE ON movies BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775)));
    UPDATE movie_stale SET title = NULL WHERE id = OLD.id AND title = OLD.title;
    DELETE FROM movie_title_exceptions WHERE id = OLD.id;
END;

DROP TRIGGER IF EXISTS movie_titles_update;
CREATE TRIGGER movie_titles_update AFTER UPDATE OF id, title ON movies
WHEN OLD.id IS NOT NEW.id OR OLD.title IS NOT NEW.title BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775)));
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775)));
    UPDATE movie_stale SET title = NULL WHERE id = OLD.id AND title = OLD.title;
    DELETE FROM movie_title_exceptions
     WHERE id = OLD.id AND (OLD.id IS NOT NEW.id OR NOT (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304))));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304)))
                    AND NOT EXISTS (SELECT 1 FROM movie_title_exceptions WHERE id = NEW.id);
END;

PRAGMA user_version = 7;
