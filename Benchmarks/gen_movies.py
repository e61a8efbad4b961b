#!/usr/bin/env python3
"""Deterministic generator of synthetic movie rows for moviecat's import benchmarks.

    python3 Benchmarks/gen_movies.py --rows 1000000 --format csv --out Benchmarks/data/movies.csv

Columns / keys, in this order: title, year, genres, rating, duration, certification.

* title: realistic-looking and unique, ignoring ASCII case (moviecat's natural key is
  title COLLATE NOCASE + year), so with the default `--duplicates 0` every row is a new
  movie.  Some titles contain commas, double quotes, apostrophes and non-ASCII text
  (é, ü, 日本語), so CSV quoting and UTF-8 are exercised.  No tabs or newlines.
* year: 1900..2025, about 3 % empty.
* genres: 1..3 distinct codes of the standard catalogue, joined by `|` (CSV/TSV) or a
  JSON array.
* rating: 0.0..10.0 with one decimal, about 4 % empty.
* duration: whole minutes 40..240, about 5 % empty.
* certification: G, PG, PG-13, R, NC-17, or empty (about 30 %).

Formats: csv (RFC 4180, header row, CRLF unless --line-ending lf, empty = null),
tsv (header row, `\\N` = null, as IMDb), jsonl (one object a line, null for missing),
json (one array of objects, one object a line).

`--duplicates PCT` makes about PCT % of the rows repeat the (title, year) of a recent
earlier row with other values (and sometimes other ASCII case), to exercise
de-duplication; the count is reported on stderr.

The output is a pure function of (--rows, --seed, --duplicates): the first K rows of a
bigger file equal a K-row file.  It streams, so memory does not depend on --rows.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Iterator

GENRES = [
    "action", "adventure", "animation", "comedy", "crime", "documentary", "drama",
    "family", "fantasy", "horror", "musical", "mystery", "romance", "sci-fi", "short",
    "thriller", "war", "western",
]
# Relative frequency of each genre (roughly IMDb-like: lots of drama and comedy).
GENRE_WEIGHTS = [8, 4, 2, 10, 5, 4, 16, 3, 3, 5, 1, 3, 6, 3, 2, 6, 1, 1]

ADJECTIVES = [
    "Dark", "Silent", "Last", "Broken", "Golden", "Hidden", "Lost", "Eternal", "Crimson",
    "Wild", "Frozen", "Burning", "Secret", "Little", "Final", "Forgotten", "Savage",
    "Midnight", "Endless", "Iron", "Scarlet", "Hollow", "Bright", "Cold", "Distant",
    "Fallen", "Gentle", "Holy", "Invisible", "Lonely", "Mad", "Quiet", "Red", "Restless",
    "Sacred", "Shattered", "Stolen", "Strange", "Sweet", "Twisted", "Velvet", "Wicked",
    "Young", "Blue", "Black", "White", "Electric", "Perfect", "Deadly", "Ancient", "Brave",
    "Empty", "Fearless", "Grand", "Happy", "Infinite", "Lucky", "Northern", "Southern",
    "Painted", "Drowned", "Fragile", "Sleeping", "Haunted", "Glass", "Paper", "Neon",
    "Rusty", "Silver", "Radiant", "Wandering", "Bitter", "Crooked", "Tender", "Mighty",
    "Naïve", "Über", "Blessed", "Fatal", "Hungry",
]
NOUNS = [
    "Kingdom", "River", "Empire", "Garden", "Night", "City", "Road", "Heart", "Storm",
    "Sky", "Island", "Summer", "Winter", "Dream", "Shadow", "Mountain", "Highway",
    "Forest", "Ocean", "Mirror", "Station", "Horizon", "Hotel", "Harbor", "Frontier",
    "Desert", "Valley", "Castle", "Bridge", "Train", "Circus", "Prophecy", "Machine",
    "Planet", "Legacy", "Promise", "Symphony", "Season", "Voyage", "Witness", "Stranger",
    "Detective", "Soldier", "Widow", "Orchard", "Lighthouse", "Carnival", "Galaxy",
    "Monster", "Requiem", "Café", "Ballad", "Cathedral", "Revolution", "Labyrinth",
    "Masquerade", "Tempest", "Sanctuary", "Wilderness", "Republic", "Affair", "Escape",
    "Kiss", "Game", "Secret", "Treasure", "Journey", "Reunion", "Confession", "Bargain",
    "Heist", "Rebellion", "Lullaby", "Exile", "Frontière", "Mädchen", "Spirit", "Hunter",
    "Gambler", "Daughter",
]
NAMES = [
    "Anna", "Frank", "Lucy", "Marco", "Nina", "Oscar", "Rosa", "Sam", "Tess", "Victor",
    "Walter", "Iris", "Jack", "Kate", "Leo", "Mia", "Noah", "Olga", "Paul", "Ruth",
    "Amélie", "Zoë", "Jürgen", "José", "Søren", "Françoise", "Björn", "Renée", "Chloé",
    "Günther", "Inés", "Agnès", "Hélène", "Ömer", "Łukasz", "花子", "健二", "美咲",
    "Dmitri", "Ingrid", "Aurora", "Bruno", "Clara", "Dolores", "Elias", "Fatima",
    "Gustav", "Hugo",
]
PLACES = [
    "Paris", "Tokyo", "Berlin", "Zürich", "Montréal", "São Paulo", "東京", "京都",
    "Chicago", "Brooklyn", "Havana", "Cairo", "Lisbon", "Marrakesh", "Vienna", "Oslo",
    "Bogotá", "Kraków", "Reykjavík", "Düsseldorf", "日本", "Hong Kong", "Nevada",
    "Texas", "Provence", "Sicily", "Bombay", "Istanbul", "Budapest", "Nagasaki", "Málaga",
    "Genève",
]
SUFFIXES = [
    " II", " III", ": Part Two", " Returns", ": The Beginning", " Reloaded",
    " (Director's Cut)", ": Revenge",
]


def plural(noun: str) -> str:
    """English plural, good enough for NOUNS."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    if noun == "Mädchen":
        return noun
    return noun + "s"


PLURAL_NOUNS = [plural(n) for n in NOUNS]

JP_ADJECTIVES = ["赤い", "静かな", "最後の", "遠い", "白い", "小さな", "青い", "長い"]
JP_NOUNS = ["夏", "夜", "雨", "約束", "物語", "秘密", "旅", "花", "恋", "家族"]

# Title templates: (weight, format, slots).  Each template has fixed words at places the
# others lack, so two templates never render the same text, even ignoring ASCII case.
TEMPLATES: list[tuple[int, str, tuple[list[str], ...]]] = [
    (2, "The {0} {1}", (ADJECTIVES, NOUNS)),
    (10, "The {0} {1}{2}", (ADJECTIVES, NOUNS, SUFFIXES)),
    (24, "{0}'s {1} {2}", (NAMES, ADJECTIVES, NOUNS)),                     # apostrophe
    (20, "{0} and the {1} {2}", (NAMES, ADJECTIVES, NOUNS)),
    (8, '"{0}" {1} in {2}', (ADJECTIVES, NOUNS, PLACES)),                  # double quotes
    (12, "Goodbye, {0}: The {1} {2}", (NAMES, ADJECTIVES, NOUNS)),          # comma
    (12, "{0} of {1}, {2}", (NOUNS, PLACES, NAMES)),                        # comma
    (28, "{0} {1} of {2}", (ADJECTIVES, PLURAL_NOUNS, PLACES)),
    (24, "A {0} {1} for {2}", (ADJECTIVES, NOUNS, NAMES)),
    (6, '{0} "{1}" {2} ({3})', (NAMES, ADJECTIVES, NOUNS, PLACES)),       # quotes, parens
    (4, "{0} {1}: {2}の{3}", (ADJECTIVES, NOUNS, PLACES, JP_NOUNS)),        # 日本語
    (1, "{0}の{1}{2}", (PLACES, JP_ADJECTIVES, JP_NOUNS)),
    (1, "{0} {1}", (ADJECTIVES, NOUNS)),
]

CERTIFICATIONS = ["G", "PG", "PG-13", "R", "NC-17"]
CERT_WEIGHTS = [6, 14, 20, 25, 5]  # plus 30 empty


class TitleSpace:
    """Distinct titles: each template walks a permutation of its own cells.

    The template of a title is chosen at random (by weight); the n-th title of a
    template is cell (n * mult + offset) mod size of that template, a bijection, so no
    title repeats until a template is exhausted; after that its titles come again with
    a number (" 2", " 3", ...), which no template produces otherwise.
    """

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed * 7919 + 17)
        for slot in {id(s): s for _, _, slots in TEMPLATES for s in slots}.values():
            assert len({w.lower() for w in slot}) == len(slot), slot
        self.templates = []  # [fmt, slots, size, mult, offset, next_index]
        self.choice = []     # weighted lookup table of template numbers
        for k, (weight, fmt, slots) in enumerate(TEMPLATES):
            size = math.prod(len(s) for s in slots)
            mult = rng.randrange(size // 3 + 1, size)
            while math.gcd(mult, size) != 1:
                mult += 1
            self.templates.append([fmt, slots, size, mult, rng.randrange(size), 0])
            self.choice.extend([k] * weight)

    def title(self, pick: int) -> str:
        t = self.templates[self.choice[pick % len(self.choice)]]
        fmt, slots, size, mult, offset, n = t
        t[5] = n + 1
        cycle, i = divmod(n, size)
        i = (i * mult + offset) % size
        words = []
        for slot in reversed(slots):
            i, d = divmod(i, len(slot))
            words.append(slot[d])
        words.reverse()
        text = fmt.format(*words)
        return text if cycle == 0 else f"{text} {cycle + 1}"


def weighted_table(values: list, weights: list[int], size: int) -> list:
    """A lookup table of `size` entries in which each value appears in proportion to its weight."""
    total = sum(weights)
    table = []
    for value, weight in zip(values, weights, strict=True):
        table.extend([value] * round(size * weight / total))
    table = (table + table[: size])[:size]
    return table


def build_tables(rng: random.Random):
    """Precomputed value tables, indexed with random bits (fast and deterministic)."""
    n = 4096
    # year: mostly recent, ~3 % empty
    years = []
    for k in range(n):
        if k < n * 3 // 100:
            years.append(None)
        else:
            y = int(2025 - abs(rng.gauss(0, 30)))
            years.append(min(2025, max(1900, y)))
    # rating: bell around 6.3, ~4 % empty
    ratings = []
    for k in range(n):
        if k < n * 4 // 100:
            ratings.append(None)
        else:
            r = round(min(10.0, max(0.0, rng.gauss(6.3, 1.4))), 1)
            ratings.append(f"{r:.1f}")
    # duration: around 100 minutes, long tail, ~5 % empty
    durations = []
    for k in range(n):
        if k < n * 5 // 100:
            durations.append(None)
        else:
            d = int(rng.lognormvariate(math.log(100), 0.22))
            durations.append(min(240, max(40, d)))
    # certification: ~30 % empty
    certs = weighted_table(CERTIFICATIONS + [None], CERT_WEIGHTS + [30], 256)
    # genres: 1..3 distinct, weighted
    combos = []
    for _ in range(65536):
        k = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
        picked: list[str] = []
        while len(picked) < k:
            g = rng.choices(GENRES, weights=GENRE_WEIGHTS)[0]
            if g not in picked:
                picked.append(g)
        combos.append(tuple(picked))
    for t in (years, ratings, durations, certs):
        rng.shuffle(t)
    return years, ratings, durations, certs, combos


def ascii_case_variant(title: str, bits: int) -> str:
    """The same title in another ASCII case (equal under SQLite's NOCASE)."""
    if bits & 1:
        return "".join(c.upper() if c.isascii() else c for c in title)
    return "".join(c.lower() if c.isascii() else c for c in title)


def generate(rows: int, seed: int, duplicates: float, stats: dict) -> Iterator[tuple]:
    """Yields (title, year, genres_tuple, rating_text, duration, certification)."""
    rng = random.Random(seed)
    years, ratings, durations, certs, combos = build_tables(rng)
    titles = TitleSpace(seed)
    bits = rng.getrandbits
    dup_threshold = int(duplicates / 100 * (1 << 20))
    recent: list[tuple[str, object]] = []  # ring buffer of (title, year) for duplicates
    ring = 4096
    ndup = 0
    for i in range(rows):
        r = bits(64)
        year = years[r & 0xFFF]
        rating = ratings[(r >> 12) & 0xFFF]
        duration = durations[(r >> 24) & 0xFFF]
        cert = certs[(r >> 36) & 0xFF]
        genres = combos[(r >> 44) & 0xFFFF]
        if dup_threshold and recent and bits(20) < dup_threshold:
            d = bits(32)
            title, year = recent[d % len(recent)]
            if (d >> 16) & 3 == 0:
                title = ascii_case_variant(title, d >> 18)
            ndup += 1
        else:
            title = titles.title(bits(16))
            if dup_threshold:
                if len(recent) < ring:
                    recent.append((title, year))
                else:
                    recent[i % ring] = (title, year)
        yield title, year, genres, rating, duration, cert
    stats["duplicates"] = ndup
    stats["distinct"] = rows - ndup


def write_csv(out, rows_iter, eol: str) -> None:
    out.write(f"title,year,genres,rating,duration,certification{eol}")
    buf = []
    append = buf.append
    for title, year, genres, rating, duration, cert in rows_iter:
        if '"' in title or "," in title:
            title = '"' + title.replace('"', '""') + '"'
        append(
            f"{title},{'' if year is None else year},{'|'.join(genres)},"
            f"{rating or ''},{'' if duration is None else duration},{cert or ''}{eol}"
        )
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))


def write_tsv(out, rows_iter, eol: str) -> None:
    out.write("title\tyear\tgenres\trating\tduration\tcertification\n")
    buf = []
    append = buf.append
    null = "\\N"
    for title, year, genres, rating, duration, cert in rows_iter:
        append(
            f"{title}\t{null if year is None else year}\t{'|'.join(genres)}\t"
            f"{rating or null}\t{null if duration is None else duration}\t{cert or null}\n"
        )
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))


def write_json(out, rows_iter, eol: str, array: bool) -> None:
    encode = json.encoder.encode_basestring  # C implementation, keeps non-ASCII as is
    genre_json: dict[tuple, str] = {}
    buf = []
    append = buf.append
    first = True
    if array:
        out.write("[\n")
    for title, year, genres, rating, duration, cert in rows_iter:
        gj = genre_json.get(genres)
        if gj is None:
            gj = genre_json[genres] = "[" + ", ".join(f'"{g}"' for g in genres) + "]"
        obj = (
            f'{{"title": {encode(title)}, "year": {"null" if year is None else year}, '
            f'"genres": {gj}, "rating": {rating or "null"}, '
            f'"duration": {"null" if duration is None else duration}, '
            f'"certification": {"null" if cert is None else chr(34) + cert + chr(34)}}}'
        )
        if array:
            append(obj if first else ",\n" + obj)
            first = False
        else:
            append(obj + "\n")
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))
    if array:
        out.write("\n]\n" if not first else "]\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, required=True, help="number of rows to write")
    ap.add_argument("--format", choices=["csv", "tsv", "jsonl", "json"], required=True)
    ap.add_argument("--out", required=True, help="output file, or - for stdout")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--duplicates", type=float, default=0.0, metavar="PCT",
                    help="percent of rows repeating an earlier (title, year) (default 0)")
    ap.add_argument("--line-ending", choices=["crlf", "lf"], default="crlf",
                    help="CSV record terminator (default crlf, as RFC 4180)")
    ap.add_argument("--quiet", action="store_true", help="no summary on stderr")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")
    if not 0 <= args.duplicates <= 100:
        ap.error("--duplicates must be between 0 and 100")

    started = time.perf_counter()
    stats: dict = {}
    rows_iter = generate(args.rows, args.seed, args.duplicates, stats)
    eol = "\r\n" if args.line_ending == "crlf" else "\n"
    out = (open(sys.stdout.fileno(), "w", encoding="utf-8", newline="", buffering=1 << 20,
                closefd=False)
           if args.out == "-" else
           open(args.out, "w", encoding="utf-8", newline="", buffering=1 << 20))
    try:
        if args.format == "csv":
            write_csv(out, rows_iter, eol)
        elif args.format == "tsv":
            write_tsv(out, rows_iter, eol)
        else:
            write_json(out, rows_iter, eol, array=args.format == "json")
    finally:
        out.close()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(f"gen_movies: {args.rows} rows ({stats.get('distinct', args.rows)} distinct movies, "
              f"{stats.get('duplicates', 0)} duplicates) as {args.format} to {args.out} "
              f"in {elapsed:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
