-- moviecat schema, version 6: movie_titles, an FTS5 trigram index of the titles, so a title
-- substring of 3 or more characters is looked up instead of scanned (moviecat filter --title).
-- It is a filter only: each candidate is still checked with the exact test, so results keep
-- section 3's semantics. Contentless: the titles stay in movies; detail=none and columnsize=0
-- keep it small (no positions: the exact test follows).
-- Titles go in with the two letters whose Unicode lower case is ASCII spelled that way
-- (U+212A KELVIN SIGN -> k, U+0130 I WITH DOT ABOVE -> i + U+0307), as moviecat's title test
-- reads them: FTS5 folds the first so, not the second. Each trigger repeats the expression.
-- Derived data: the triggers keep it in step under every write, moviecat's and a sqlite3
-- user's alike. Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0006_title_search.sql`.
-- Safe to run again: it first drops what it makes (the exceptions table's triggers, version 7's,
-- go with it).
DROP TABLE IF EXISTS movie_titles;
DROP TABLE IF EXISTS movie_title_exceptions;
DROP TRIGGER IF EXISTS movie_titles_insert;
DROP TRIGGER IF EXISTS movie_titles_delete;
DROP TRIGGER IF EXISTS movie_titles_update;

CREATE VIRTUAL TABLE movie_titles USING fts5(
    title, content = '', tokenize = 'trigram', detail = 'none', columnsize = 0);

-- Rows in id order: FTS5 flushes its buffer whenever a rowid goes backwards.
INSERT INTO movie_titles (rowid, title)
SELECT id, replace(replace(title, char(8490), 'k'), char(304), 'i' || char(775)) FROM movies ORDER BY id;
INSERT INTO movie_titles (movie_titles) VALUES ('optimize');

-- The movies whose titles have one of those two letters: where LIKE, which folds ASCII only, is
-- not the whole title test. Usually none, so the test is usually LIKE alone.
CREATE TABLE movie_title_exceptions (
    id INTEGER PRIMARY KEY                          -- movies.id
) STRICT;
INSERT INTO movie_title_exceptions (id)
SELECT id FROM movies WHERE instr(title, char(8490)) OR instr(title, char(304));

CREATE TRIGGER movie_titles_insert AFTER INSERT ON movies BEGIN
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775)));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE instr(NEW.title, char(8490)) OR instr(NEW.title, char(304));
END;

-- Contentless: a row leaves the index by naming the value it was indexed with.
CREATE TRIGGER movie_titles_delete AFTER DELETE ON movies BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775)));
    DELETE FROM movie_title_exceptions WHERE id = OLD.id;
END;

CREATE TRIGGER movie_titles_update AFTER UPDATE OF id, title ON movies
WHEN OLD.id IS NOT NEW.id OR OLD.title IS NOT NEW.title BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775)));
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775)));
    DELETE FROM movie_title_exceptions WHERE id = OLD.id;
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE instr(NEW.title, char(8490)) OR instr(NEW.title, char(304));
END;

PRAGMA user_version = 6;
