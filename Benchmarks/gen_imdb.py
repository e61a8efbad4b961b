#!/usr/bin/env python3
"""Deterministic generator of IMDb-shaped title.basics and title.ratings files.

    python3 Benchmarks/gen_imdb.py --rows 1000000 --gzip

Writes, in OUT-DIR (default Benchmarks/data):

* title.basics-ROWS.tsv: `tconst titleType primaryTitle originalTitle isAdult startYear
  endYear runtimeMinutes genres`, ROWS rows;
* title.ratings-ROWS.tsv: `tconst averageRating numVotes`, about 13 % of the titles;
* with --gzip, also title.basics-ROWS.tsv.gz and title.ratings-ROWS.tsv.gz: the same
  bytes through gzip (compresslevel 6, mtime 0, so the output is reproducible), written
  in the same pass, so a benchmark can compare plain and compressed input.

The shape is IMDb's (https://developer.imdb.com/non-commercial-datasets/): tab-separated,
one header row, `\\N` for null, no quoting (titles contain `"` as plain text), LF line
ends, UTF-8.  Both files are sorted by tconst (`tt` + 7 digits, 8 above 9,999,999,
strictly increasing with random gaps).

The mix follows IMDb's: ~70 % tvEpisode, ~9 % short, ~6 % movie, ~1.3 % tvMovie, the
rest tvSeries, video, tvMiniSeries, tvSpecial, videoGame, tvShort and tvPilot; ~2 %
isAdult=1 of any type.  Episodes mostly have stock titles ("Episode #1.3", "Episode dated
12 May 1994", "Pilot"), so title+year repeats a lot; movies and the other types get the
made-up titles of gen_movies.py (commas, quotes, apostrophes, accents, Japanese), and
~0.5 % of movies repeat the title and year of a recent movie under another tconst.
Ratings cover ~75 % of movies and TV movies and far fewer of the other types.

The output is a pure function of (--rows, --seed); the first K rows of a bigger file
equal a K-row file (so do the ratings of those rows).  It streams: memory does not
depend on --rows.  Files are written as NAME.partial and renamed when complete.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import random
import sys
import time

# Made-up titles and their word lists: the same as the CSV benchmark's (no __pycache__
# left in Benchmarks/ for it).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_movies import ADJECTIVES, NAMES, NOUNS, TitleSpace, weighted_table  # noqa: E402

NULL = "\\N"

# titleType -> per-mille of rows.
TYPES = [
    ("tvEpisode", 700), ("short", 90), ("movie", 60), ("tvMovie", 13), ("tvSeries", 45),
    ("video", 40), ("tvMiniSeries", 16), ("tvSpecial", 14), ("videoGame", 12),
    ("tvShort", 9), ("tvPilot", 1),
]
# Chance (%) that a title of the type has ratings: ~75 % of movies, ~13 % of all rows.
RATED_PCT = {
    "tvEpisode": 4.5, "short": 12, "movie": 75, "tvMovie": 75, "tvSeries": 35, "video": 15,
    "tvMiniSeries": 30, "tvSpecial": 20, "videoGame": 25, "tvShort": 15, "tvPilot": 10,
}
KEPT_TYPES = ("movie", "tvMovie")  # what moviecat's imdb-basics layout keeps (isAdult=0)

GENRES = [
    "Action", "Adult", "Adventure", "Animation", "Biography", "Comedy", "Crime",
    "Documentary", "Drama", "Family", "Fantasy", "Film-Noir", "Game-Show", "History",
    "Horror", "Music", "Musical", "Mystery", "News", "Reality-TV", "Romance", "Sci-Fi",
    "Short", "Sport", "Talk-Show", "Thriller", "War", "Western",
]
GENRE_WEIGHTS = [
    6, 0, 4, 4, 2, 14, 5, 10, 18, 4, 3, 0.3, 1, 2, 4, 3, 1, 3, 2, 3, 6, 2, 0, 2, 2, 4, 1, 1,
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
EPISODE_STOCK = ["Pilot", "Finale", "Season Finale", "The Reunion", "Homecoming",
                 "Part 1", "Part 2", "Part 3", "Special", "Christmas Special", "Behind the Scenes",
                 "Day 1", "Day 2", "Round 1", "The Final", "Live Show", "Semi-Final", "Auditions"]
JP_ORIGINAL = ["夏の約束", "東京物語", "赤い花", "最後の旅", "静かな夜", "遠い雨", "白い恋"]


def build_tables(rng: random.Random) -> dict:
    """Precomputed value tables, indexed with random bits (fast and deterministic)."""
    n = 4096
    t: dict = {}
    # startYear: mostly recent, a long tail back to 1874, a few future years, ~1 % null.
    years = []
    for k in range(n):
        if k < n // 100:
            years.append(None)
        elif k < n // 100 + n // 50:
            years.append(rng.randint(2026, 2031))
        elif k < n // 100 + n // 50 + 8:
            years.append(rng.randint(1874, 1899) if k > n // 100 + n // 50 else 1874)
        else:
            years.append(min(2025, max(1874, int(2025.9 - abs(rng.gauss(0, 22))))))
    rng.shuffle(years)
    t["years"] = years

    def durations(null_pct: float, mu: float, sigma: float, lo: int, hi: int) -> list[str]:
        out = []
        for k in range(n):
            if k < n * null_pct / 100:
                out.append(NULL)
            else:
                out.append(str(min(hi, max(lo, int(rng.lognormvariate(math.log(mu), sigma))))))
        rng.shuffle(out)
        return out

    # runtimeMinutes per kind of title: ~30 % null overall; movies mostly 70..180.
    t["runtime_movie"] = durations(15, 98, 0.22, 1, 300)
    t["runtime_episode"] = durations(34, 32, 0.45, 1, 300)
    t["runtime_short"] = durations(25, 10, 0.6, 1, 45)
    t["runtime_other"] = durations(30, 60, 0.6, 1, 300)

    def combos(forced: str | None) -> list[str]:
        # 1..3 distinct genres, alphabetical (as IMDb writes them), ~5 % null.
        out = []
        for k in range(n):
            if k < n * 5 // 100:
                out.append(NULL)
                continue
            picked = [forced] if forced else []
            want = rng.choices([1, 2, 3], weights=[40, 30, 30])[0]
            while len(picked) < want:
                g = rng.choices(GENRES, weights=GENRE_WEIGHTS)[0]
                if g not in picked:
                    picked.append(g)
            out.append(",".join(sorted(picked)))
        rng.shuffle(out)
        return out

    t["genres"] = combos(None)
    t["genres_short"] = combos("Short")
    t["genres_adult"] = combos("Adult")
    # averageRating: bell around 6.8 (IMDb's mean) plus a flat 3 %, one decimal, 1.0..10.0.
    t["ratings"] = [f"{rng.uniform(1.0, 10.0) if k < n * 3 // 100 else min(10.0, max(1.0, rng.gauss(6.8, 1.3))):.1f}"
                    for k in range(n)]
    # "Episode #S.E": few seasons, episodes mostly low numbers.
    t["episode_numbers"] = [
        f"Episode #{min(60, 1 + int(rng.expovariate(0.35)))}.{min(300, 1 + int(rng.expovariate(0.06)))}"
        for _ in range(n)
    ]
    t["day_months"] = [f"{d} {m}" for m in MONTHS for d in range(1, 29)]
    # Other episode titles: a small pool, so they repeat as real ones do.
    pool = list(EPISODE_STOCK)
    while len(pool) < 2000:
        form = rng.randrange(3)
        if form == 0:
            pool.append(f"The {rng.choice(NOUNS)}")
        elif form == 1:
            pool.append(f"{rng.choice(NAMES)}'s {rng.choice(NOUNS)}")
        else:
            pool.append(f"The {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}")
    t["episode_pool"] = pool
    return t


class Writer:
    """One output (.tsv, and .tsv.gz too with gzip) written as NAME.partial, renamed on close."""

    def __init__(self, path: str, also_gzip: bool) -> None:
        self.paths = [path] + ([path + ".gz"] if also_gzip else [])
        self.raw = open(path + ".partial", "wb", buffering=1 << 20)
        self.gz_file = self.gz = None
        if also_gzip:
            self.gz_file = open(path + ".gz.partial", "wb", buffering=1 << 20)
            # No file name and mtime 0 in the header: same bytes on every run.
            self.gz = gzip.GzipFile(filename="", mode="wb", compresslevel=6,
                                    fileobj=self.gz_file, mtime=0)

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        self.raw.write(data)
        if self.gz:
            self.gz.write(data)

    def close(self) -> None:
        self.raw.close()
        if self.gz:
            self.gz.close()
            self.gz_file.close()
        for path in self.paths:
            os.replace(path + ".partial", path)

    def discard(self) -> None:
        for f in (self.raw, self.gz, self.gz_file):
            if f:
                f.close()
        for path in self.paths:
            try:
                os.remove(path + ".partial")
            except FileNotFoundError:
                pass


def generate(rows: int, seed: int, basics: Writer, ratings: Writer, stats: dict) -> None:
    rng = random.Random(seed)
    t = build_tables(rng)
    titles = TitleSpace(seed)
    originals = TitleSpace(seed + 1)
    bits = rng.getrandbits
    random_float = rng.random

    type_table = weighted_table(list(range(len(TYPES))), [w for _, w in TYPES], 1024)
    names = [name for name, _ in TYPES]
    rated_threshold = [int(RATED_PCT[name] / 100 * (1 << 20)) for name in names]
    kept = [name in KEPT_TYPES for name in names]
    movie_like = [name in ("movie", "tvMovie", "video", "tvSpecial") for name in names]
    runtime = [t["runtime_episode"] if name in ("tvEpisode", "tvPilot")
               else t["runtime_short"] if name in ("short", "tvShort")
               else t["runtime_movie"] if name in ("movie", "tvMovie")
               else t["runtime_other"] for name in names]
    genres_of = [t["genres_short"] if name in ("short", "tvShort") else t["genres"] for name in names]
    vote_exponent = [1.6 if name in KEPT_TYPES else 1.2 for name in names]
    EPISODE, MOVIE = names.index("tvEpisode"), names.index("movie")
    SERIES, MINI = names.index("tvSeries"), names.index("tvMiniSeries")

    years = t["years"]
    year_text = [NULL if y is None else str(y) for y in years]
    ratings_table = t["ratings"]
    genres_adult = t["genres_adult"]
    episode_numbers, day_months, pool = t["episode_numbers"], t["day_months"], t["episode_pool"]
    recent_movies: list[tuple[str, int]] = []  # (title, year index) for title+year pairs
    ring = 1024

    per_type = [0] * len(names)
    adult_rows = kept_rows = rated_rows = kept_rated = pairs = 0
    tid = 0
    out, rout = [], []
    basics.write("tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\t"
                 "endYear\truntimeMinutes\tgenres\n")
    ratings.write("tconst\taverageRating\tnumVotes\n")
    for i in range(rows):
        # r: gap 0-2, type 3-12, year 13-24, adult 25-34, pick 35-46, title 47-62;
        # s: runtime 0-11, originalTitle 12-21, series span 22-23, rated 24-43, rating 44-55.
        r = bits(64)
        s = bits(56)
        tid += 1 + (r & 3) + ((r >> 2) & 1)  # gaps of 0..4 ids: ~3 ids a title, like IMDb's
        ty = type_table[(r >> 3) & 0x3FF]
        per_type[ty] += 1
        yi = (r >> 13) & 0xFFF
        adult = ((r >> 25) & 0x3FF) < 20  # 20/1024 ~ 2 %
        pick = (r >> 35) & 0xFFF
        if ty == EPISODE:
            kind = (r >> 47) & 0xF
            if kind < 9:
                title = episode_numbers[pick]
            elif kind < 11 and years[yi] is not None:
                title = f"Episode dated {day_months[pick % 336]} {years[yi]}"
            else:
                title = pool[pick % 2000]
            original = title
        else:
            if ty == MOVIE and recent_movies and ((r >> 47) & 0xFF) == 0:  # ~0.4 %
                title, yi = recent_movies[pick % len(recent_movies)]
                pairs += 1
            else:
                title = titles.title((r >> 47) & 0xFFFF)
                if ty == MOVIE:
                    if len(recent_movies) < ring:
                        recent_movies.append((title, yi))
                    else:
                        recent_movies[i % ring] = (title, yi)
            # originalTitle differs for ~6 % (a foreign-language original).
            o = (s >> 12) & 0x3FF
            if o < 60:
                original = JP_ORIGINAL[o % 7] if o < 8 else originals.title(o * 37 + i)
            else:
                original = title
        year = year_text[yi]
        end = NULL
        if (ty == SERIES or ty == MINI) and years[yi] is not None:
            span = 0 if ty == MINI else ((s >> 22) & 3) * 3 + (pick & 7)
            end = str(min(2031, years[yi] + span))
        if adult:
            adult_rows += 1
            genres = genres_adult[pick]
        else:
            genres = genres_of[ty][pick]
        out.append(f"tt{tid:07d}\t{names[ty]}\t{title}\t{original}\t{1 if adult else 0}\t"
                   f"{year}\t{end}\t{runtime[ty][s & 0xFFF]}\t{genres}\n")
        is_kept = kept[ty] and not adult
        kept_rows += is_kept
        if (s >> 24) & 0xFFFFF < rated_threshold[ty]:
            rated_rows += 1
            kept_rated += is_kept
            # Pareto tail: most titles a few votes, a few millions; movies more than episodes.
            votes = int(5 * (1.0 - random_float()) ** -vote_exponent[ty])
            if movie_like[ty]:
                votes = votes * 3 + 2
            rout.append(f"tt{tid:07d}\t{ratings_table[s >> 44]}\t{min(votes, 3000000)}\n")
        if len(out) >= 8192:
            basics.write("".join(out))
            out.clear()
            if rout:
                ratings.write("".join(rout))
                rout.clear()
    basics.write("".join(out))
    ratings.write("".join(rout))
    stats.update(per_type=dict(zip(names, per_type)), adult=adult_rows, kept=kept_rows,
                 rated=rated_rows, kept_rated=kept_rated, pairs=pairs, last_id=tid)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=12_000_000,
                    help="title.basics rows (default 12,000,000, about IMDb's size)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="output directory (default Benchmarks/data)")
    ap.add_argument("--gzip", action="store_true",
                    help="also write .tsv.gz copies of both files (compresslevel 6)")
    ap.add_argument("--quiet", action="store_true", help="no summary on stderr")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")

    started = time.perf_counter()
    os.makedirs(args.out_dir, exist_ok=True)
    basics_path = os.path.join(args.out_dir, f"title.basics-{args.rows}.tsv")
    ratings_path = os.path.join(args.out_dir, f"title.ratings-{args.rows}.tsv")
    basics = Writer(basics_path, args.gzip)
    ratings = Writer(ratings_path, args.gzip)
    stats: dict = {}
    try:
        generate(args.rows, args.seed, basics, ratings, stats)
    except BaseException:
        basics.discard()
        ratings.discard()
        raise
    basics.close()
    ratings.close()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        rows = max(1, args.rows)
        per_type = ", ".join(f"{name} {n} ({100 * n / rows:.1f} %)"
                             for name, n in sorted(stats["per_type"].items(), key=lambda kv: -kv[1]))
        sizes = ", ".join(f"{os.path.basename(p)} {os.path.getsize(p) / 1048576:.1f} MiB"
                          for p in basics.paths + ratings.paths)
        print(f"gen_imdb: {args.rows} basics rows (last id tt{stats['last_id']:07d}) in {elapsed:.1f} s\n"
              f"  by type: {per_type}\n"
              f"  adult: {stats['adult']} ({100 * stats['adult'] / rows:.1f} %)\n"
              f"  kept (movie or tvMovie, isAdult=0): {stats['kept']}, "
              f"of which {stats['pairs']} repeat an earlier movie's title and year\n"
              f"  ratings: {stats['rated']} rows ({100 * stats['rated'] / rows:.1f} %), "
              f"{stats['kept_rated']} of kept titles\n"
              f"  files: {sizes}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
