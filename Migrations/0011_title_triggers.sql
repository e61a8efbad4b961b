-- moviecat schema, version 11: the triggers that keep movie_titles in step with movies (version
-- 6's insert, version 7's delete and update; their bodies unchanged) index titles through version
-- 10's expression, lower() of version 6's (the index folds no case itself). A migration of its
-- own so that running version 7 again (which makes two of them) is always followed by it.
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0011_title_triggers.sql`. Safe to run again: it drops them first.
DROP TRIGGER IF EXISTS movie_titles_insert;
CREATE TRIGGER movie_titles_insert AFTER INSERT ON movies BEGIN
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, lower(replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775))));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE instr(NEW.title, char(8490)) OR instr(NEW.title, char(304));
END;

DROP TRIGGER IF EXISTS movie_titles_delete;
CREATE TRIGGER movie_titles_delete AFTER DELETE ON movies BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, lower(replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775))));
    UPDATE movie_stale SET title = NULL WHERE id = OLD.id AND title = OLD.title;
    DELETE FROM movie_title_exceptions WHERE id = OLD.id;
END;

DROP TRIGGER IF EXISTS movie_titles_update;
CREATE TRIGGER movie_titles_update AFTER UPDATE OF id, title ON movies
WHEN OLD.id IS NOT NEW.id OR OLD.title IS NOT NEW.title BEGIN
    INSERT INTO movie_titles (movie_titles, rowid, title)
    VALUES ('delete', OLD.id, lower(replace(replace(OLD.title, char(8490), 'k'), char(304), 'i' || char(775))));
    INSERT INTO movie_titles (rowid, title)
    VALUES (NEW.id, lower(replace(replace(NEW.title, char(8490), 'k'), char(304), 'i' || char(775))));
    UPDATE movie_stale SET title = NULL WHERE id = OLD.id AND title = OLD.title;
    DELETE FROM movie_title_exceptions
     WHERE id = OLD.id AND (OLD.id IS NOT NEW.id OR NOT (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304))));
    INSERT INTO movie_title_exceptions (id)
    SELECT NEW.id WHERE (instr(NEW.title, char(8490)) OR instr(NEW.title, char(304)))
                    AND NOT EXISTS (SELECT 1 FROM movie_title_exceptions WHERE id = NEW.id);
END;

PRAGMA user_version = 11;
