/// SHA-256 (FIPS 180-4), the one hash that says whether content changed: `resize`'s manifest
/// records the digest of every sticker written and of its input (a sticker copied with another
/// time stamp is still known as ours; an input touched without being changed is still up to
/// date), and a catalog's record the digest of every sticker folder pack made
/// (`StickerFolderDigest`: edited since, or not). Not used for secrecy. Short stable names are
/// `ContentDigest`'s job.
public enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for word in digest(bytes) {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int(word >> UInt32(shift) & 15)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of `bytes` as eight big-endian words.
    static func digest(_ bytes: [UInt8]) -> [UInt32] {
        var tail = Array(bytes[(bytes.count / 64 * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var state = State()
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                bytes.withUnsafeBufferPointer { whole in
                    for block in 0..<(bytes.count / 64) { state.compress(whole.baseAddress! + block * 64, w, k) }
                }
                tail.withUnsafeBufferPointer { last in
                    for block in 0..<(last.count / 64) { state.compress(last.baseAddress! + block * 64, w, k) }
                }
            }
        }
        return [state.a, state.b, state.c, state.d, state.e, state.f, state.g, state.h]
    }

    /// The eight working words, kept in registers across blocks: arrays here (bounds checks,
    /// uniqueness checks on every store) made the manifest's hashing several times slower.
    private struct State {
        var a: UInt32 = 0x6a09e667, b: UInt32 = 0xbb67ae85, c: UInt32 = 0x3c6ef372, d: UInt32 = 0xa54ff53a
        var e: UInt32 = 0x510e527f, f: UInt32 = 0x9b05688c, g: UInt32 = 0x1f83d9ab, h: UInt32 = 0x5be0cd19

        /// One 64-byte block at `p`, with `w` as the message schedule and `k` the round constants.
        @inline(__always)
        mutating func compress(_ p: UnsafePointer<UInt8>, _ w: UnsafeMutableBufferPointer<UInt32>,
                               _ k: UnsafeBufferPointer<UInt32>) {
            @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 &- n) }
            let w = w.baseAddress!, k = k.baseAddress!
            for i in 0..<16 {
                w[i] = UInt32(p[4 &* i]) << 24 | UInt32(p[4 &* i &+ 1]) << 16 | UInt32(p[4 &* i &+ 2]) << 8 | UInt32(p[4 &* i &+ 3])
            }
            for i in 16..<64 {
                let x = w[i &- 15], y = w[i &- 2]
                let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
            }
            var a = self.a, b = self.b, c = self.c, d = self.d, e = self.e, f = self.f, g = self.g, h = self.h
            // Eight rounds per step with the roles of the words rotated, instead of moving all
            // eight words every round.
            @inline(__always)
            func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
                       _ h: inout UInt32, _ i: Int) {
                let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                d &+= t1
                h = t1 &+ t2
            }
            for i in stride(from: 0, to: 64, by: 8) {
                round(a, b, c, &d, e, f, g, &h, i)
                round(h, a, b, &c, d, e, f, &g, i &+ 1)
                round(g, h, a, &b, c, d, e, &f, i &+ 2)
                round(f, g, h, &a, b, c, d, &e, i &+ 3)
                round(e, f, g, &h, a, b, c, &d, i &+ 4)
                round(d, e, f, &g, h, a, b, &c, i &+ 5)
                round(c, d, e, &f, g, h, a, &b, i &+ 6)
                round(b, c, d, &e, f, g, h, &a, i &+ 7)
            }
            self.a &+= a; self.b &+= b; self.c &+= c; self.d &+= d
            self.e &+= e; self.f &+= f; self.g &+= g; self.h &+= h
        }
    }
}
