-- The demo catalog of the original moviecat iOS app: 13 movies with the genre, duration
-- and rating the app had (its "2h" is 120 minutes), release years added.
-- Load with `moviecat init --seed` or `sqlite3 catalog.sqlite < seed.sql` after the migrations.

INSERT OR IGNORE INTO genres (code, name) VALUES
    ('action', 'Action'), ('comedy', 'Comedy'), ('drama', 'Drama');

INSERT OR IGNORE INTO movies (title, year, rating, duration_minutes) VALUES
    ('A Man Called Ahok',       2018, 5, 120),
    ('Aquaman',                 2018, 4, 180),
    ('Batman v Superman',       2016, 2, 120),
    ('Bohemian Rhapsody',       2018, 5, 180),
    ('Forrest Gump',            1994, 5, 120),
    ('La La Land',              2016, 5, 180),
    ('Seven Samurai',           1954, 3,  60),
    ('The Godfather',           1972, 5, 180),
    ('The Godfather Part II',   1974, 5, 120),
    ('The Wolf of Wall Street', 2013, 5,  60),
    ('50 Shades of Grey',       2015, 1, 120),
    ('Taken',                   2008, 2,  60),
    ('2001: A Space Odyssey',   1968, 5, 180);

INSERT OR IGNORE INTO movie_genres (movie_id, genre_id)
WITH s (title, year, code) AS (VALUES ('A Man Called Ahok', 2018, 'drama'),
               ('Aquaman', 2018, 'action'),
               ('Batman v Superman', 2016, 'action'),
               ('Bohemian Rhapsody', 2018, 'drama'),
               ('Forrest Gump', 1994, 'comedy'),
               ('La La Land', 2016, 'drama'),
               ('Seven Samurai', 1954, 'action'),
               ('The Godfather', 1972, 'drama'),
               ('The Godfather Part II', 1974, 'drama'),
               ('The Wolf of Wall Street', 2013, 'comedy'),
               ('50 Shades of Grey', 2015, 'drama'),
               ('Taken', 2008, 'drama'),
               ('2001: A Space Odyssey', 1968, 'drama'))
SELECT m.id, g.id
  FROM s
  JOIN movies m ON m.title = s.title AND m.year = s.year
  JOIN genres g ON g.code = s.code
 -- A movie the user already had keeps the genres they gave it.
 WHERE NOT EXISTS (SELECT 1 FROM movie_genres x WHERE x.movie_id = m.id AND x.genre_id <> g.id);
