/// Reads a JSON object whose values are all strings, `{"a": "x", "b": "y"}`, keeping its keys in
/// file order (a decoded dictionary forgets the order, and a labels file's order is the pack's).
/// Strict JSON (RFC 8259) for that shape: string escapes including `\uXXXX` surrogate pairs,
/// whitespace anywhere between tokens; anything else gives nil.
enum FlatJSONObject {
    static func parse(_ text: String) -> [(key: String, value: String)]? {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        return scanner.object()
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var i = 0

        mutating func skipSpace() {
            while i < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[i]) { i += 1 }
        }

        mutating func take(_ s: Unicode.Scalar) -> Bool {
            skipSpace()
            guard i < scalars.count, scalars[i] == s else { return false }
            i += 1
            return true
        }

        mutating func object() -> [(key: String, value: String)]? {
            guard take("{") else { return nil }
            var pairs: [(key: String, value: String)] = []
            if take("}") { return end(pairs) }
            repeat {
                guard let key = string(), take(":"), let value = string() else { return nil }
                pairs.append((key, value))
            } while take(",")
            guard take("}") else { return nil }
            return end(pairs)
        }

        mutating func end(_ pairs: [(key: String, value: String)]) -> [(key: String, value: String)]? {
            skipSpace()
            return i == scalars.count ? pairs : nil
        }

        mutating func string() -> String? {
            guard take("\"") else { return nil }
            var out = String.UnicodeScalarView()
            while i < scalars.count {
                let c = scalars[i]
                i += 1
                switch c {
                case "\"": return String(out)
                case "\\":
                    guard i < scalars.count else { return nil }
                    let e = scalars[i]
                    i += 1
                    switch e {
                    case "\"", "\\", "/": out.append(e)
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{C}")
                    case "n": out.append("\n")
                    case "r": out.append("\r")
                    case "t": out.append("\t")
                    case "u":
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code) {
                            // A high surrogate must be followed by an escaped low one.
                            guard i + 1 < scalars.count, scalars[i] == "\\", scalars[i + 1] == "u" else { return nil }
                            i += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        out.append(scalar)
                    default: return nil
                    }
                default:
                    if c.value < 0x20 { return nil }
                    out.append(c)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard i + 4 <= scalars.count else { return nil }
            var v: UInt32 = 0
            for s in scalars[i..<(i + 4)] {
                guard let d = Character(s).hexDigitValue else { return nil }
                v = v << 4 | UInt32(d)
            }
            i += 4
            return v
        }
    }
}
