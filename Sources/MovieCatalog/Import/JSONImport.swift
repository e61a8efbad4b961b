/// JSON array and JSON Lines input for the importer: one object per record, keys mapped to fields.
extension Importer {
    func importJSON(_ input: ByteReader, mode: JSONRecordReader.Mode) throws {
        let mapping = self.mapping
        let name = input.name
        ignore(try streamRows(from: input, header: MovieField.allCases.map(\.name)) { input in
            let reader = JSONRecordReader(reader: input, mode: mode)
            var fieldOfKey: [String: MovieField?] = [:]
            return { batch in
                guard let record = try reader.next() else { return false }
                var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
                for member in record.members {
                    let field: MovieField?
                    if let cached = fieldOfKey[member.key] {
                        field = cached
                    } else {
                        field = mapping.field(for: member.key)
                        fieldOfKey[member.key] = field
                        if field == nil { batch.ignored.append(member.key) }
                    }
                    if let field { cells[field.rawValue] = Importer.cell(member.value) }
                }
                batch.append(RowDecoder.decode(file: name, line: record.line) { cells[$0.rawValue] },
                             raw: cells.map(Importer.rawText))
                return true
            }
        })
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
            var strings: [String] = []
            for item in items {
                guard case .string(let s) = item else { return .unsupported("an array holding \(item.kindName)") }
                strings.append(s)
            }
            return .list(strings)
        }
    }

    /// A cell as text for the rejects file.
    static func rawText(_ cell: Cell) -> String {
        switch cell {
        case .absent, .null, .invalidUTF8: return ""
        case .text(let s), .number(let s): return s
        case .list(let items): return items.joined(separator: "|")
        case .unsupported(let kind): return "(\(kind))"
        }
    }
}
