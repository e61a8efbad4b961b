import Testing
@testable import MovieCatalog

/// Reading a trigger's timing from its CREATE TRIGGER statement as sqlite_master keeps it.
@Suite struct TriggerTimingTests {
    @Test("AFTER triggers are told from BEFORE ones (SQLite's default), past names, quotes, schemas and comments",
          arguments: [
              ("CREATE TRIGGER a AFTER INSERT ON movies BEGIN SELECT 1; END", true),
              ("CREATE TRIGGER a BEFORE INSERT ON movies BEGIN SELECT 1; END", false),
              ("CREATE TRIGGER a INSERT ON movies BEGIN SELECT 1; END", false),
              ("create trigger a delete on movies begin select 1; end", false),
              ("CREATE TRIGGER a UPDATE OF title ON movies BEGIN SELECT 1; END", false),
              ("create temp trigger if not exists main.\"after\" before delete on movies begin select 1; end", false),
              ("CREATE TEMPORARY TRIGGER x.y AFTER DELETE ON movies BEGIN SELECT 1; END", true),
              ("CREATE TRIGGER [x y] /* AFTER */ AFTER UPDATE OF title ON movies BEGIN SELECT 1; END", true),
              ("CREATE TRIGGER [x y] /* AFTER */ UPDATE OF title ON movies BEGIN SELECT 1; END", false),
              ("CREATE TRIGGER `a``b` -- before\n after insert ON movies BEGIN SELECT 1; END", true),
              ("CREATE TRIGGER \"a\"\"after\" INSERT ON movies BEGIN SELECT 1; END", false),
              ("CREATE TRIGGER 'q' INSTEAD OF INSERT ON movie_list BEGIN SELECT 1; END", false),
              ("CREATE TRIGGER after AFTER INSERT ON movies BEGIN SELECT 1; END", true),
              ("CREATE TRIGGER before BEFORE INSERT ON movies BEGIN SELECT 1; END", false),
              ("CREATE\tTRIGGER\nÄfter\rAFTER INSERT ON movies BEGIN SELECT 1; END", true),
              // Unreadable: taken as AFTER (a rebuild too many, never one too few).
              ("", true), ("CREATE TRIGGER", true), ("CREATE TRIGGER \"open", true), ("CREATE VIEW v AS SELECT 1", true),
              ("CREATE TRIGGER IF EXISTS a BEFORE INSERT ON movies BEGIN SELECT 1; END", true),
          ])
    func timing(_ sql: String, _ after: Bool) {
        #expect(TriggerTiming.firesAfter(sql) == after, "\(sql)")
    }
}
