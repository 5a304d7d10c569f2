#if canImport(CommonCrypto)
import CommonCrypto
#else
import CCrypto
#endif

/// `SHA256` of data that arrives in pieces (a file read a buffer at a time, never held whole):
/// the same digest as `SHA256.hex` of the pieces joined.
public final class SHA256Stream {
    #if canImport(CommonCrypto)
    private var context = CC_SHA256_CTX()
    #else
    private let context: OpaquePointer
    #endif

    public init() {
        #if canImport(CommonCrypto)
        CC_SHA256_Init(&context)
        #else
        guard let c = EVP_MD_CTX_new() else { fatalError("SHA256Stream: libcrypto cannot allocate a digest context") }
        context = c
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
        EVP_MD_CTX_free(context)
        #endif
    }

    /// Adds the next piece.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CommonCrypto)
        var offset = 0
        repeat {
            let n = min(bytes.count - offset, Int(Int32.max))
            CC_SHA256_Update(&context, base + offset, CC_LONG(n))
            offset += n
        } while offset < bytes.count
        #else
        EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    /// The digest of every piece added, 32 bytes; the stream is done.
    func digest() -> [UInt8] {
        var md = [UInt8](repeating: 0, count: SHA256.byteCount)
        md.withUnsafeMutableBufferPointer { out in
            #if canImport(CommonCrypto)
            CC_SHA256_Final(out.baseAddress, &context)
            #else
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, out.baseAddress, &length)
            #endif
        }
        return md
    }

    /// The digest of every piece added, as 64 lower-case hex digits; the stream is done.
    public func hex() -> String { SHA256.hex(digest: digest()) }
}
