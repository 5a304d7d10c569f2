#if canImport(Glibc)
import Glibc
#endif
import StickerKit

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

    /// Under a budget below the default (`holdTight`): freed memory past this many bytes at the
    /// top of a heap is given back at once, and blocks from this size up (glibc's starting
    /// threshold, kept from rising) are mapped on their own and unmapped when freed. At 256 KB
    /// the colour cube under `--max-memory 100` peaked at 96–101 MB from run to run, at 128 KB at 91 MB.
    static let tightTrimThreshold = 1 << 20
    static let tightMmapThreshold = 128 << 10

    /// Called once before a batch whose files have `maxMemory` each: under the default budget,
    /// glibc gives freed memory back as it goes instead of keeping it for the next blocks
    /// (`M_TRIM_THRESHOLD`, `M_MMAP_THRESHOLD`), so that a file's resident set follows what it
    /// holds. Under `--max-memory 100` the colour cube's three sizes peaked at 105 MB with 65 MB
    /// of live heap; the rest was freed memory kept (now 91 MB). It costs page faults: the
    /// animated corpus at `--size all --max-memory 128 --jobs 2` took 11.4 s instead of 9.4 s
    /// (system CPU 3.9 s instead of 0.3 s), so the default budget leaves glibc as it is.
    static func holdTight(maxMemory: Int) {
        #if canImport(Glibc)
        guard maxMemory < Limits.defaultMemory, let set = mallopt else { return }
        _ = set(Self.trimThresholdParameter, Int32(tightTrimThreshold))
        _ = set(Self.mmapThresholdParameter, Int32(tightMmapThreshold))
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` (malloc.h).
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3
    /// `mallopt` and `malloc_trim`, which glibc exports but Swift's Glibc module does not declare.
    private static let mallopt = glibc("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
    private static let mallocTrim = glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self)

    /// The C function `name` of the running process, as `type`, or nil when it has none.
    private static func glibc<F>(_ name: String, as type: F.Type) -> F? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

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
