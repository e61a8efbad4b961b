-- moviecat schema, version 5: one index on movie_facets per numeric sort key, so a page of a
-- broad set sorted by rating, year, votes or duration walks an index in sort order and stops
-- after its rows instead of sorting every match (moviecat filter --sort KEY --limit N).
-- Partial: movies without the value cost nothing (IMDb leaves most titles unrated), and a
-- query that tests the column, or says `IS NOT NULL`, can still use them.
-- Applied by moviecat in one transaction; also runnable as `sqlite3 catalog.sqlite < 0005_sort_indexes.sql`.
-- Safe to run again: it first drops what it makes.
DROP INDEX IF EXISTS movie_facets_rating;
DROP INDEX IF EXISTS movie_facets_year;
DROP INDEX IF EXISTS movie_facets_votes;
DROP INDEX IF EXISTS movie_facets_minutes;
CREATE INDEX movie_facets_rating  ON movie_facets (rating)  WHERE rating  IS NOT NULL;
CREATE INDEX movie_facets_year    ON movie_facets (year)    WHERE year    IS NOT NULL;
CREATE INDEX movie_facets_votes   ON movie_facets (votes)   WHERE votes   IS NOT NULL;
CREATE INDEX movie_facets_minutes ON movie_facets (minutes) WHERE minutes IS NOT NULL;

PRAGMA user_version = 5;
