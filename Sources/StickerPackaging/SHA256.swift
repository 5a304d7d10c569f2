/// SHA-256 (FIPS 180-4), the one hash that says whether content changed: `resize`'s manifest
/// records the digest of every sticker written and of its input (a sticker copied with another
/// time stamp is still known as ours; an input touched without being changed is still up to
/// date), and a catalog's record the digest of every sticker folder pack made
/// (`StickerFolderDigest`: edited since, or not). Not used for secrecy. Short stable names are
/// `ContentDigest`'s job.
///
/// Computed by the system (`SHA256Stream`): OpenSSL's libcrypto on Linux, CommonCrypto on macOS. Both use the
/// CPU's SHA instructions where it has them (1.5 GB/s, against about 0.3 GB/s for SHA-256 rounds
/// written in Swift); a batch hashes every input and output, which at 300 px would otherwise be
/// 4 % of a batch of stills' CPU.
public enum SHA256 {
    /// Bytes in a digest.
    static let byteCount = 32

    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        hex(digest: digest(bytes))
    }

    /// A digest's 32 bytes as 64 lower-case hex digits.
    static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(2 * byteCount)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of `bytes`, 32 bytes.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let stream = SHA256Stream()
        bytes.withUnsafeBytes { stream.update($0) }
        return stream.digest()
    }
}
