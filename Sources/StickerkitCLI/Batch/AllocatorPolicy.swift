#if canImport(Glibc)
import Glibc
#endif

/// Gives the allocator's freed memory back to the system between a batch's files, when the
/// process holds much of it.
///
/// glibc's malloc serves blocks from its heaps once its mmap threshold has risen (to the largest
/// block freed, up to 32 MiB), and a heap keeps its freed pages resident: each of a batch's job
/// threads kept the high-water mark of the heaviest file it had converted, so the whole batch
/// peaked at the sum of the two heaviest jobs whenever they ran. After a file, when the resident
/// set is over `trimAbove`, `malloc_trim(0)` returns the free pages (a few times a batch: only
/// around the heavy animations). Measured in NOTES.md (StickerKit, Memory).
enum AllocatorPolicy {
    /// Resident bytes above which a finished file's freed memory is given back.
    static let trimAbove = 250_000_000

    /// Called when a file is done (glibc only; elsewhere the allocator is left as it is).
    static func fileDone() {
        #if canImport(Glibc)
        guard residentBytes() > trimAbove, let trim = mallocTrim else { return }
        _ = trim(0)
        #endif
    }

    #if canImport(Glibc)
    /// `malloc_trim`, which glibc exports but Swift's Glibc module does not declare.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// The process's resident set (`/proc/self/statm`, in pages), or 0 when unreadable.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return 0 }
        let fields = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    #endif
}
