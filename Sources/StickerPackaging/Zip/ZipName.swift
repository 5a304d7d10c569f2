/// How a ZIP entry's name bytes become text (PKWARE's APPNOTE 4.4.4 and appendix D, and Info-ZIP's
/// Unicode Path extra field, APPNOTE 4.6.9):
/// - general purpose flag bit 11 set: the name is UTF-8;
/// - else an Info-ZIP Unicode Path field (0x7075, version 1) whose CRC-32 is that of the name
///   bytes carries the name in UTF-8 (Info-ZIP's `zip` writes one beside a name in the system's
///   code page);
/// - else bytes that are valid UTF-8 are read as UTF-8 (what macOS's and Linux's tools write
///   without setting the flag);
/// - else the bytes are IBM code page 437, the format's original encoding, which Windows'
///   Explorer used for names without the flag: `Caf\u{82}.png` is `Café.png`.
/// Without this a CP437 name read as UTF-8 turned every accented letter into U+FFFD, so
/// `Café.png` and `Cafè.png` came out as one name and one of them was lost.
enum ZipName {
    /// The name of `raw` bytes, with the entry's general purpose `flags` and its central
    /// directory `extra` field bytes.
    static func decode<Raw: Collection<UInt8>, Extra: Collection<UInt8>>(_ raw: Raw, flags: Int, extra: Extra) -> String {
        let bytes = Array(raw)
        if flags & (1 << 11) != 0 { return String(decoding: bytes, as: UTF8.self) }
        if let unicode = unicodePath(in: Array(extra), nameCRC: StoredZip.crc32(bytes)) { return unicode }
        if let utf8 = utf8(bytes) { return utf8 }
        return String(String.UnicodeScalarView(bytes.map(cp437)))
    }

    /// The Unicode Path field's name in `extra`, when its CRC-32 matches the name it stands for
    /// (a name changed by a tool that did not update the field is left to the header's bytes).
    static func unicodePath(in extra: [UInt8], nameCRC: UInt32) -> String? {
        var p = 0
        while p + 4 <= extra.count {
            let id = Int(extra[p]) | Int(extra[p + 1]) << 8
            let size = Int(extra[p + 2]) | Int(extra[p + 3]) << 8
            let body = p + 4
            guard body + size <= extra.count else { return nil }
            if id == 0x7075, size >= 5, extra[body] == 1 {
                let crc = UInt32(extra[body + 1]) | UInt32(extra[body + 2]) << 8
                    | UInt32(extra[body + 3]) << 16 | UInt32(extra[body + 4]) << 24
                if crc == nameCRC { return utf8(extra[(body + 5)..<(body + size)]) }
            }
            p = body + size
        }
        return nil
    }

    /// `bytes` as text when they are valid UTF-8, else nil.
    static func utf8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var iterator = bytes.makeIterator()
        var parser = UTF8()
        var text = String.UnicodeScalarView()
        while true {
            switch parser.decode(&iterator) {
            case .scalarValue(let scalar): text.append(scalar)
            case .emptyInput: return String(text)
            case .error: return nil
            }
        }
    }

    /// The character code page 437 gives `byte` (ASCII below 0x80).
    static func cp437(_ byte: UInt8) -> Unicode.Scalar {
        byte < 0x80 ? Unicode.Scalar(byte) : high[Int(byte) - 0x80]
    }

    /// Code page 437's characters for 0x80–0xFF.
    private static let high: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}"
            .unicodeScalars)
}
