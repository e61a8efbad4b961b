import MovieDomain
import SQLiteStore
/// JSON array and JSON Lines input for the importer: one object per record, keys mapped to fields.
extension Importer {
    func importJSON(_ input: ByteReader, mode: JSONRecordReader.Mode) throws {
        let options = self.options
        let name = input.name
        let ignored = try streamRows(from: input, header: MovieField.allCases.map(\.name)) { input in
            let reader = JSONRecordReader(reader: input, mode: mode)
            var plan: ImportPlan?
            var fieldOfKey: [String: MovieField?] = [:]
            /// The `--where` keys some record had, by lower-cased key.
            var conditionKeysSeen: Set<String> = []
            /// The first record's keys, and whether any record kept (nil: none) had a key for
            /// the field every row needs.
            var firstKeys: [String] = []
            var requiredSeen: Bool?
            /// Whether a kind key (`RowKinds`) may still be found: none yet, no layout, not turned off.
            var kindKeyOpen = false
            var keysLookedAt: Set<String> = []
            return { batch in
                guard let record = try reader.next() else {
                    try Importer.checkConditionKeys(plan, seen: conditionKeysSeen, options: options, file: name)
                    try Importer.checkRequiredKey(plan, seen: requiredSeen, firstKeys: firstKeys, file: name)
                    return false
                }
                let members = Importer.flattened(record.members)
                if plan == nil {
                    firstKeys = members.compactMap { if case .object = $0.value { nil } else { $0.key } }
                    let made = ImportPlan.make(keys: firstKeys, options: options)
                    plan = made
                    kindKeyOpen = made.layout == nil && options.layout == .automatic && !made.conditions.contains(where: \.excludes)
                    batch.note = made.note
                    // Sonarr's series, Trakt's shows: no movies, so nothing is read.
                    if let layout = made.layout, let reason = layout.notMovies {
                        batch.note = "\(layout.title): \(reason); skipped (--layout none reads its keys)"
                        return false
                    }
                }
                // A key naming each record's kind may first come in a later record (keys looked at
                // once each, up to a bound).
                if kindKeyOpen {
                    for member in members where !keysLookedAt.contains(member.key) {
                        if keysLookedAt.count < Importer.keysRemembered { keysLookedAt.insert(member.key) }
                        guard RowKinds.isKindColumn(member.key, options: options) else { continue }
                        plan!.conditions.append(RowKinds.condition(column: -1, name: member.key))
                        kindKeyOpen = false
                        break
                    }
                }
                let plan = plan!
                var byKind = false
                if !plan.conditions.isEmpty
                    && !Importer.passes(members, plan.conditions, seen: &conditionKeysSeen, byKind: &byKind) {
                    batch.filtered += 1
                    batch.leftOutByConditions += 1
                    if byKind {
                        batch.leftOutByKind += 1
                        batch.kindColumn = plan.conditions.first(where: \.excludes)?.name
                    }
                    return true
                }
                var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
                // The key each field was read from: a key it prefers (`--map`'s exact name, the
                // field's own over an alias) replaces it, in either order.
                var readFrom = [String?](repeating: nil, count: MovieField.allCases.count)
                for member in members {
                    let field: MovieField?
                    if let cached = fieldOfKey[member.key] {
                        field = cached
                    } else {
                        // A nested object is named by its members (`movie.ids.slug`), not as itself.
                        var nested = false
                        if case .object = member.value { nested = true }
                        field = nested ? plan.mapping.field(forObject: member.key) : plan.mapping.field(for: member.key)
                        let ignored = field == nil && !nested && !plan.conditions.contains(where: { FieldMapping.folded($0.name) == FieldMapping.folded(member.key) })
                        // Keys remembered, and named, up to a bound: records each with a key of
                        // their own must not grow memory with the file.
                        if fieldOfKey.count < Importer.keysRemembered {
                            fieldOfKey[member.key] = field
                            if ignored { batch.ignored.append(member.key) }
                        } else if ignored {
                            batch.moreIgnored = true
                        }
                    }
                    if let field {
                        if let other = readFrom[field.rawValue], !plan.mapping.prefers(member.key, over: other, for: field) { continue }
                        readFrom[field.rawValue] = member.key
                        cells[field.rawValue] = Importer.cell(member.value)
                    }
                }
                if requiredSeen != true { requiredSeen = cells[plan.required.rawValue] != .absent }
                for rule in plan.rules { rule.apply(to: &cells) }
                // Text that cannot be stored spoils the record where something reads it: in a key,
                // a NUL anywhere, or the value of a key that feeds a field or a --where.
                let spoiled = record.textProblems.first { problem in
                    guard let key = problem.key else { return true }
                    // The key, or a member nested in it (`movie.title` for a problem under `movie`).
                    return members.contains { member in
                        (member.key == key || member.key.hasPrefix(key + "."))
                            && (plan.mapping.field(for: member.key) != nil || plan.conditions.contains { FieldMapping.folded($0.name) == FieldMapping.folded(member.key) })
                    }
                }
                var decoded: DecodedRow
                if let spoiled {
                    decoded = .invalid([ImportProblem(file: name, line: record.line, field: "record", reason: spoiled.reason)])
                } else {
                    decoded = RowDecoder.decode(file: name, line: record.line, required: plan.required) { cells[$0.rawValue] }
                }
                // On a line with other records, a problem names its record too.
                if let number = record.number, case .invalid(var problems) = decoded {
                    for index in problems.indices { problems[index].record = number }
                    decoded = .invalid(problems)
                }
                batch.append(decoded, raw: cells.map { Importer.rawBytes($0, record.rawTexts) })
                return true
            }
        }
        ignore(ignored.ignored, more: ignored.more)
    }

    /// How many distinct JSON keys an input's reading remembers.
    static let keysRemembered = 1_000

    /// A record's members with each nested object's members beside it as `key.sub` (`movie.title`,
    /// `movie.ids.imdb`, eight levels deep at most): Trakt's exports and many API results nest the
    /// movie in an object. The object itself stays, for a field it would feed to refuse.
    static func flattened(_ members: [JSONMember]) -> [JSONMember] {
        guard members.contains(where: { if case .object = $0.value { true } else { false } }) else { return members }
        var out: [JSONMember] = []
        func add(_ members: [JSONMember], prefix: String, depth: Int) {
            for member in members {
                let key = prefix + member.key
                out.append(prefix.isEmpty ? member : JSONMember(key: key, value: member.value))
                if case .object(let inner) = member.value, depth < 8 { add(inner, prefix: key + ".", depth: depth + 1) }
            }
        }
        add(members, prefix: "", depth: 1)
        return out
    }

    /// Whether a record's keys hold allowed values for every condition. A missing key fails a
    /// condition `--where` gives; a layout's default applies only where the key is (a Trakt
    /// export of movies alone has no `type`). `byKind` tells whether `RowKinds`' condition failed.
    static func passes(_ members: [JSONMember], _ conditions: [RowCondition], seen: inout Set<String>, byKind: inout Bool) -> Bool {
        var passes = true
        for condition in conditions {
            let key = FieldMapping.folded(condition.name)
            // The key named exactly as given, else one differing in case or `_` (as for columns).
            guard let member = members.first(where: { $0.key == condition.name })
                    ?? members.first(where: { FieldMapping.folded($0.key) == key }) else {
                if condition.given { passes = false }
                continue
            }
            seen.insert(key)
            let accepted: Bool
            switch member.value {
            case .string(let text), .number(let text): accepted = condition.accepts(text)
            case .bool(let flag): accepted = condition.accepts(flag ? "true" : "false")
            // A kind that is no text (none, a list of kinds) is no show's.
            case .null, .array, .object: accepted = condition.excludes
            }
            if !accepted {
                passes = false
                if condition.excludes { byKind = true }
            }
        }
        return passes
    }

    /// A `--where` key no record had is an error, as a column a header lacks is.
    static func checkConditionKeys(_ plan: ImportPlan?, seen: Set<String>, options: ImportOptions, file: String) throws {
        guard plan != nil else { return }   // no record at all: nothing to hold against the keys
        for clause in options.wheres where clause.values != nil && !seen.contains(FieldMapping.folded(clause.column)) {
            throw CatalogError(.dataError, "\(file): --where \(clause.column): no record has the key \(clause.column.quotedForMessage)")
        }
    }

    /// Records none of which has a title key fail as a header without a title column does
    /// (each row would only be rejected, and `--skip-invalid` import nothing with exit 0).
    static func checkRequiredKey(_ plan: ImportPlan?, seen: Bool?, firstKeys: [String], file: String) throws {
        guard let plan, seen == false, plan.required == .title else { return }   // none kept, or some had one
        let keys = firstKeys.isEmpty ? "the first record has none" : "the first record's are " + ImportPlan.quotedList(firstKeys)
        let records = plan.conditions.isEmpty ? "no record" : "no record --where keeps"
        // A title nested in an object (`film.title`), else a `name` (not read unasked in JSON).
        let nested = firstKeys.first { $0.lowercased().hasSuffix(".title") } ?? firstKeys.first { $0.lowercased() == "name" }
            ?? firstKeys.first { $0.lowercased().hasSuffix(".name") }
        let map = nested.map { "--map title=\($0)" } ?? "--map title=KEY"
        throw CatalogError(.dataError, "\(file): \(records) has a title key (title, primaryTitle, film or movie, or use \(map)); \(keys)")
    }

    /// A JSON value as an input cell.
    static func cell(_ value: JSONValue) -> Cell {
        switch value {
        case .null: return .null
        case .string(let s): return .text(s)
        case .number(let n): return .number(n)
        case .bool: return .unsupported("a boolean")
        case .object: return .unsupported("an object")
        case .array(let items):
            if let first = items.first, case .number = first {
                var numbers: [String] = []
                for item in items {
                    guard case .number(let n) = item else { return .unsupported("an array holding \(item.kindName)") }
                    numbers.append(n)
                }
                return .numbers(numbers)
            }
            var strings: [String] = []
            for item in items {
                switch item {
                case .string(let s): strings.append(s)
                // `[{"id": 28, "name": "Action"}]`, as TMDB and others list genres (Plex: `tag`);
                // Plex's `Guid` list: `[{"id": "imdb://tt1375666"}]`.
                case .object(let members):
                    let named = members.first { ["name", "tag"].contains($0.key.lowercased()) } ?? members.first { $0.key.lowercased() == "id" }
                    guard let named, case .string(let s) = named.value else {
                        return .unsupported("an array holding an object without a name")
                    }
                    strings.append(s)
                default: return .unsupported("an array holding \(item.kindName)")
                }
            }
            return .list(strings)
        }
    }

    /// A cell as text for the rejects file.
    /// A cell as bytes for the rejects file: a string that was not UTF-8 as it was read.
    static func rawBytes(_ cell: Cell, _ rawTexts: [String: [UInt8]]) -> [UInt8] {
        if case .text(let text) = cell, let raw = rawTexts[text] { return raw }
        return Array(rawText(cell).utf8)
    }

    static func rawText(_ cell: Cell) -> String {
        switch cell {
        case .absent, .null, .invalidUTF8: return ""
        case .text(let s), .number(let s): return s
        case .list(let items), .numbers(let items): return items.joined(separator: "|")
        case .unsupported(let kind): return "(\(kind))"
        }
    }
}
