/// In JSON a path is a string when its bytes are UTF-8, else `{"hex": "…"}` with every byte, so
/// that a name in any encoding survives a round trip through the manifest.
extension BytePath: Codable {
    private enum Keys: String, CodingKey { case hex }

    init(from decoder: any Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            self.init(s)
            return
        }
        let hex = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .hex)
        var bytes: [UInt8] = []
        var digits = hex.utf8.makeIterator()
        while let hi = digits.next() {
            guard let lo = digits.next(), let h = Self.nibble(hi), let l = Self.nibble(lo) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "odd or non-hex digits"))
            }
            bytes.append(h << 4 | l)
        }
        self.init(bytes: bytes)
    }

    func encode(to encoder: any Encoder) throws {
        if let s = string {
            var c = encoder.singleValueContainer()
            try c.encode(s)
        } else {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined(), forKey: .hex)
        }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
