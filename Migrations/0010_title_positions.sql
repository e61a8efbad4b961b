-- moviecat schema, version 10: movie_titles keeps each trigram's positions (FTS5's detail=full),
-- so that a title of 3 or more ASCII characters is a phrase query: its trigrams one after
-- another, which is exactly the substring test. A count of the titles with "heart" then reads
-- the index alone, where version 6's index (no positions) only narrowed to candidates whose
-- movies rows were each read and tested: 118,000 random page reads at 10M movies. The index is
-- about 2.6 times as large (some 75 bytes a title). Still contentless.
-- Exact, so FTS5 folds nothing (case_sensitive 1): it would fold letters that Unicode lower
-- case leaves alone to ASCII (U+017F LONG S to s; and bytes SQLite decodes as such a letter,
-- like the overlong E0 85 BF). The titles go in as the title test reads them: version 6's two
-- letters whose lower case is ASCII written so, then SQLite's lower(), which changes ASCII
-- letters only. Version 11 makes the triggers that feed the index again with that expression
-- (on its own: every rebuild that runs version 7 again, which makes two of them, runs it after).
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0010_title_positions.sql`. Safe to run again: it makes the index anew.
DROP TABLE IF EXISTS movie_titles;

CREATE VIRTUAL TABLE movie_titles USING fts5(
    title, content = '', tokenize = 'trigram case_sensitive 1', detail = 'full', columnsize = 0);

-- Rows in id order, merges put off until the index is whole, then one merge: as version 6.
INSERT INTO movie_titles (movie_titles, rank) VALUES ('automerge', 0);
INSERT INTO movie_titles (rowid, title)
SELECT id, lower(replace(replace(title, char(8490), 'k'), char(304), 'i' || char(775))) FROM movies ORDER BY id;
INSERT INTO movie_titles (movie_titles) VALUES ('optimize');
INSERT INTO movie_titles (movie_titles, rank) VALUES ('automerge', 4);

-- The index now holds each movie's title as it is: the titles movie_stale (version 7) says it
-- may hold besides are gone with the old index, and must not be taken out of the new one.
UPDATE movie_stale SET title = NULL WHERE title IS NOT NULL;

PRAGMA user_version = 10;
