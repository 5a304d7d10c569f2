/// Escaping for one-line messages (`PATH: error: WHAT`): a file name may hold a newline (which
/// would forge a second message), a carriage return or escape sequence (which would rewrite the
/// terminal), invalid UTF-8, or bidirectional controls that reorder what is shown. Each becomes a
/// visible escape; everything else is shown as it is. Backslashes are not doubled, so names with
/// backslashes stay readable (a name holding a backslash and an `n` reads like an escaped newline).
enum MessageText {
    /// `text` with every character that could break or disguise a line escaped.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Bytes of a file name decoded as UTF-8, each invalid byte shown as `\xHH`, then escaped as
    /// `escape(_:)` does.
    static func escape(bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i) {
                append(scalar, to: &out)
                i += length
            } else {
                out += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// Whether `bytes` are well-formed UTF-8 throughout.
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            guard let (_, length) = decodeScalar(bytes, at: i) else { return false }
            i += length
        }
        return true
    }

    /// Whether a scalar is shown escaped: C0 and C1 controls, DEL, the Unicode line and paragraph
    /// separators, and the bidirectional formatting characters.
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func append(_ s: Unicode.Scalar, to out: inout String) {
        guard needsEscape(s) else {
            out.unicodeScalars.append(s)
            return
        }
        switch s {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out += s.value <= 0xFF ? "\\x" + hex(UInt8(s.value)) : "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    /// The scalar of the well-formed UTF-8 sequence at `i` and its length, or nil when the bytes
    /// there are not one (a stray continuation byte, a truncated or overlong sequence, a
    /// surrogate, or a value above U+10FFFF).
    static func decodeScalar(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
