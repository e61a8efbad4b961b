-- moviecat schema, version 12: a row that INSERT OR REPLACE or UPDATE OR REPLACE deletes to make
-- room for one with its id fires no delete trigger, so its title stayed in movie_titles while the
-- new row's title went in beside it: two entries for one rowid. The repair then took one title out
-- and put the new one in again, and the index kept a copy that a later delete could not remove
-- (it surfaced when FTS5 merged its segments: `filter --title X --count` over-counted). Now the
-- insert and update triggers take out, first, the title version 7's log holds for the id they
-- write (logged by movie_stale_on_insert or movie_stale_on_update just before, for the row the
-- write replaced; such a logged title is always the one the index holds for that id), and clear
-- it in the log. The insert trigger also leaves an exception row a replaced row left for the id
-- (a REPLACE by title and year or IMDb id frees an id with its exception row still there; an
-- insert into that id failed on it). Otherwise version 11's triggers, unchanged.
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0012_title_replace.sql`. Safe to run again: it drops them first.
DROP TRIGGER IF EXISTS movie_titles_insert;
CREATE TRIGGER movie_titles_insert AFTER INSERT ON movies BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    SELECT DISTINCT 'delete', id, lower(replace(replace(title, char(8490), 'k'), char(304), 'i' || char(775)))
      FROM movie_stale WHERE id = NEW.id AND title IS NOT NULL;
    UPDATE movie_stale SET title = NULL WHERE id = NEW.id AND title IS NOT NULL;
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, lower(replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775))));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304)))
                    AND NOT EXISTS (SELECT 1 FROM movie_title_exceptions WHERE id = NEW.id);
END;

DROP TRIGGER IF EXISTS movie_titles_update;
CREATE TRIGGER movie_titles_update AFTER UPDATE OF id, title ON movies
WHEN OLD.id IS NOT NEW.id OR OLD.title IS NOT NEW.title BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, lower(replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775))));
    INSERT INTO movie_titles (movie_titles, rowid, title)
    SELECT DISTINCT 'delete', id, lower(replace(replace(title, char(8490), 'k'), char(304), 'i' || char(775)))
      FROM movie_stale WHERE id = NEW.id AND NEW.id IS NOT OLD.id AND title IS NOT NULL;
    UPDATE movie_stale SET title = NULL WHERE id = NEW.id AND NEW.id IS NOT OLD.id AND title IS NOT NULL;
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, lower(replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775))));
    UPDATE movie_stale SET title = NULL WHERE id = OLD.id AND title = OLD.title;
    DELETE FROM movie_title_exceptions
     WHERE id = OLD.id AND (OLD.id IS NOT NEW.id OR NOT (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304))));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304)))
                    AND NOT EXISTS (SELECT 1 FROM movie_title_exceptions WHERE id = NEW.id);
END;

PRAGMA user_version = 12;
