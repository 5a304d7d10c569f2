import Foundation

/// The cores one process lets its work use, shared between a batch's workers and the work inside
/// a conversion that can use another core (a large still's split deflate), so that `--jobs N`
/// runs on N cores: each worker of a batch holds a core while it has files (`run`), and only the
/// cores nobody holds are lent (`withSpareCores`). A batch of one job never runs two threads; the
/// last files of a batch get the cores of the workers that have run out of files. Outside a
/// batch (a library user's call) the caller's thread holds one core and the others are spare.
///
/// Lending depends on timing; what is computed must not: a caller given no spare core does the
/// same work on its own thread, one piece after the other.
///
/// Why `@unchecked Sendable` is sound: the counts are private and read or written only between
/// `lock()` and `unlock()` of the one `NSLock`.
public final class CorePool: @unchecked Sendable {
    /// The process's pool: every core, until a batch says how many it runs on.
    public static let shared = CorePool(cores: ProcessInfo.processInfo.activeProcessorCount)

    private let lock = NSLock()
    private var cores: Int
    /// Cores held by a batch's running workers (1 outside a batch: the caller's thread).
    private var held = 1
    /// Cores lent by `withSpareCores` and not yet given back.
    private var lent = 0

    /// A pool of `cores` (at least 1) cores.
    public init(cores: Int) { self.cores = max(1, cores) }

    /// Runs `worker(w)` for `w` in `0..<workers` on `workers` threads, the pool set to `cores`
    /// cores of which each running worker holds one; a worker's core is spare from the moment it
    /// returns. The pool is as before once every worker has returned. For one batch at a time.
    public func run(cores: Int, workers: Int, _ worker: @Sendable (Int) -> Void) {
        let before = locked {
            defer { (self.cores, held) = (max(1, cores), workers) }
            return (self.cores, held)
        }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            worker(w)
            locked { held -= 1 }
        }
        locked { (self.cores, held) = before }
    }

    /// Calls `body(n)` with `n` ≤ `wanted` cores taken from the spare ones (0 when none is
    /// spare) and gives them back when it returns: `body` may run up to `n` threads besides its
    /// own.
    public func withSpareCores<T>(upTo wanted: Int, _ body: (Int) throws -> T) rethrows -> T {
        let n = locked {
            let n = max(0, min(wanted, cores - held - lent))
            lent += n
            return n
        }
        defer { if n > 0 { locked { lent -= n } } }
        return try body(n)
    }

    /// `body` between `lock()` and `unlock()` (`NSLocking.withLock` needs macOS 14).
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
