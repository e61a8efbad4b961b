-- moviecat schema, version 14: a movie deleted while foreign keys are off (the sqlite3 shell's
-- default) takes its genre links with it, as ON DELETE CASCADE does while they are on. Left
-- behind, they went to the next movie given its id (a new movie's id is the largest + 1): it
-- showed, and was counted under, genres it never had.
DROP TRIGGER IF EXISTS movie_genres_follow_delete;
CREATE TRIGGER movie_genres_follow_delete AFTER DELETE ON movies BEGIN
    DELETE FROM movie_genres WHERE movie_id = OLD.id;
END;

-- Links such deletes left before this version above the largest id, where new movies' ids go.
-- (Those below it wait for an id no command gives again; finding them reads every link, some
-- 12 seconds at 10 million movies.)
DELETE FROM movie_genres WHERE movie_id > (SELECT ifnull(max(id), 0) FROM movies);

PRAGMA user_version = 14;
