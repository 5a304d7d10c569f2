#if canImport(CommonCrypto)
import CommonCrypto
#else
import CCrypto
#endif

/// SHA-256 (FIPS 180-4), the one hash that says whether content changed: `resize`'s manifest
/// records the digest of every sticker written and of its input (a sticker copied with another
/// time stamp is still known as ours; an input touched without being changed is still up to
/// date), and a catalog's record the digest of every sticker folder pack made
/// (`StickerFolderDigest`: edited since, or not). Not used for secrecy. Short stable names are
/// `ContentDigest`'s job.
///
/// Computed by the system: OpenSSL's libcrypto on Linux, CommonCrypto on macOS. Both use the
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
        var md = [UInt8](repeating: 0, count: byteCount)
        bytes.withUnsafeBufferPointer { input in
            md.withUnsafeMutableBufferPointer { out in
                #if canImport(CommonCrypto)
                // CC_LONG is 32 bits: longer inputs go through the streaming interface.
                var context = CC_SHA256_CTX()
                CC_SHA256_Init(&context)
                var offset = 0
                repeat {
                    let n = min(input.count - offset, Int(Int32.max))
                    CC_SHA256_Update(&context, input.baseAddress.map { $0 + offset }, CC_LONG(n))
                    offset += n
                } while offset < input.count
                CC_SHA256_Final(out.baseAddress, &context)
                #else
                _ = CCrypto.SHA256(input.baseAddress, input.count, out.baseAddress)
                #endif
            }
        }
        return md
    }
}
