-- moviecat schema, version 8: movie_facet_totals, the facet counts with nothing selected of each
-- block of 4,096 movie ids (block = id >> 12), so that the filter list's first screen reads a few
-- thousand short rows instead of every movie's facet row. Derived data, and a cache only:
-- * any write to movie_facets (moviecat's, a trigger's, a sqlite3 user's) deletes the rows of the
--   blocks it touches, by the triggers below;
-- * moviecat counts the blocks without a row again before its writes commit;
-- * a read counts the ids of blocks without a row (or whose counts are NULL: values the encoding
--   has no place for) from movie_facets itself, so a count is never taken from a stale block.
-- counts: little-endian 16-bit counts of the 63 genre bits, the rating buckets 0-10, the hours
-- 0-63 and the decades 1800s-2430s, then each certification as a length byte, its bytes and its
-- count (moviecat writes and reads it: FacetTotals.swift).
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0008_facet_totals.sql` (which leaves the table empty: counted from
-- movie_facets until moviecat next writes). Safe to run again: it drops what it makes first.
DROP TABLE IF EXISTS movie_facet_totals;
DROP TRIGGER IF EXISTS movie_facet_totals_insert;
DROP TRIGGER IF EXISTS movie_facet_totals_update;
DROP TRIGGER IF EXISTS movie_facet_totals_delete;

CREATE TABLE movie_facet_totals (
    block  INTEGER PRIMARY KEY,                     -- movie_facets ids block * 4096 ... block * 4096 + 4095
    counts BLOB                                     -- NULL: count the block's rows
) STRICT;

CREATE TRIGGER movie_facet_totals_insert AFTER INSERT ON movie_facets BEGIN
    DELETE FROM movie_facet_totals WHERE block = NEW.id >> 12;
END;

CREATE TRIGGER movie_facet_totals_update AFTER UPDATE ON movie_facets BEGIN
    DELETE FROM movie_facet_totals WHERE block IN (OLD.id >> 12, NEW.id >> 12);
END;

CREATE TRIGGER movie_facet_totals_delete AFTER DELETE ON movie_facets BEGIN
    DELETE FROM movie_facet_totals WHERE block = OLD.id >> 12;
END;

PRAGMA user_version = 8;
