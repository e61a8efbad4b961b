-- moviecat schema, version 13: no table changes. From this version moviecat stores text composed
-- (Unicode NFC: `é` as one letter, not `e` and a combining accent), from every input, `add`,
-- `edit` and preset names. Upgrading a catalog, moviecat composes the titles, certifications,
-- preset names and preset elements stored before in the other spelling (leaving a title as it is
-- where the composed one would be another stored movie's), so that a list imported again finds
-- its movies. Run by `sqlite3`, this file changes nothing but the version: a new catalog holds no
-- text yet. So a catalog holding movies is upgraded past version 12 by moviecat (any command),
-- not by this file: SQL alone cannot compose text, and moviecat will not do it later.
PRAGMA user_version = 13;
