import Foundation

/// A JSON string literal written scalar by scalar, the reference the suites compare with: with
/// `asciiOnly` every scalar past ASCII as `\uXXXX` (surrogate pairs above the BMP), with
/// `lineSeparators` U+2028 and U+2029 escaped as moviecat writes them.
public func jsonString(_ text: String, asciiOnly: Bool = false, lineSeparators: Bool = false) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || lineSeparators && (scalar.value == 0x2028 || scalar.value == 0x2029):
            out += String(format: "\\u%04x", scalar.value)
        case _ where asciiOnly && scalar.value > 0x7E:
            for unit in String(scalar).utf16 { out += String(format: "\\u%04X", unit) }
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
