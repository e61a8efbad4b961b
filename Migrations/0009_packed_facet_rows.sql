-- moviecat schema, version 9: movie_facet_totals gains `packed`, each block's facet rows packed
-- column by column (genre bits, rating, minutes, year, certification; about 14 bytes a movie), so
-- that the counts of a selection are tallied in moviecat from some 2,400 blobs at 10M movies where
-- a scan read every movie's facet row through SQLite. The same cache as version 8's counts, kept
-- by the same triggers: a block whose facet rows change loses its row (both columns), and a read
-- tallies the rows of blocks without one (or whose packed rows are NULL: values with no place in
-- the encoding) from movie_facets itself. The encoding: PackedFacetRows.swift.
-- Applied by moviecat in one transaction; also runnable as
-- `sqlite3 catalog.sqlite < 0009_packed_facet_rows.sql` (which leaves the table empty: counted from
-- movie_facets until moviecat next writes). Safe to run again: it makes the table anew.
DROP TABLE IF EXISTS movie_facet_totals;

CREATE TABLE movie_facet_totals (
    block  INTEGER PRIMARY KEY,                     -- movie_facets ids block * 4096 ... block * 4096 + 4095
    counts BLOB,                                    -- NULL: count the block's rows
    packed BLOB                                     -- NULL: tally the block's rows
) STRICT;

PRAGMA user_version = 9;
