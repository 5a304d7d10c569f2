#if canImport(Glibc)
import Glibc
#endif

/// How the process's allocator treats large blocks, set once before any work.
///
/// glibc's malloc serves blocks from 128 KiB up by `mmap` and unmaps them when freed, until one
/// such block is freed: from then on its threshold rises to that block's size (up to 32 MiB), and
/// blocks below it come from the heaps, where freed pages stay resident. In a batch two jobs run
/// on their own threads and heaps, and each heap keeps the high-water mark of the heaviest job it
/// ran: the whole batch's peak was the sum of the two heaviest jobs' peaks, whenever they ran.
/// A fixed threshold of 16 MiB (a 618 px store's chunks, big arrays of frames) sends those blocks
/// back to the system as soon as they are freed. Measured in NOTES.md (StickerKit, Memory).
enum AllocatorPolicy {
    /// Blocks at least this large are mapped on their own and returned when freed.
    static let mmapThreshold: Int32 = 16 << 20

    /// Applies the policy (glibc only; elsewhere the system allocator is left as it is).
    static func apply() {
        #if canImport(Glibc)
        // `mallopt` is not in Swift's Glibc module; glibc exports it. M_MMAP_THRESHOLD is -3.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-3, mmapThreshold)
        #endif
    }
}
