/// A 64-bit FNV-1a hash as 16 hex digits: tells whether a sticker stickerkit wrote was changed
/// since, and names cache entries. Not a defence against anyone crafting collisions, which
/// neither use needs.
public struct ContentDigest: Sendable, Equatable {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    /// Adds `bytes` to the hash.
    public mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for b in bytes { state = (state ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    }

    /// Adds a string's UTF-8 bytes and a separator no UTF-8 text contains, so that
    /// ("ab", "c") and ("a", "bc") hash differently.
    public mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(UInt8(0xFF)))
    }

    /// The hash so far as 16 lowercase hex digits.
    public var hex: String {
        let s = String(state, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The hash of one string, as hex.
    public static func of(_ text: String) -> String {
        var d = ContentDigest()
        d.add(text)
        return d.hex
    }
}
