/// Numbers as moviecat writes them: plain decimals that read back exactly, grouped counts.
public enum NumberText {
    /// A number in plain decimal notation (`0.00001`, never `1e-05`), shortest form that reads back exactly.
    public static func decimal(_ value: Double) -> String {
        let text = String(value)
        // The bytes first: looking for the exponent character by character broke the text into
        // graphemes (some 1,900 instructions a rating exported).
        guard value.isFinite, text.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
              let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        let exponent = Int(text[text.index(after: e)...])!
        var mantissa = String(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var point = parts[0].count + exponent          // position of the decimal point in `digits`
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point >= digits.count {
            digits += String(repeating: "0", count: point - digits.count + 1)
        }
        var fraction = String(digits[digits.index(digits.startIndex, offsetBy: point)...])
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = String(digits[..<digits.index(digits.startIndex, offsetBy: point)])
        return (negative ? "-" : "") + whole + "." + (fraction.isEmpty ? "0" : fraction)
    }

    /// 58788 -> "58,788".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

}
