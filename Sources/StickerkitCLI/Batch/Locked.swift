import Foundation

/// A value shared between threads, reachable only inside `withLock` — what
/// `Synchronization.Mutex` gives from macOS 15, for the macOS 13 floor.
///
/// Why `@unchecked Sendable` is sound here: `value` is private and read or written only inside
/// `withLock`, between `lock()` and `unlock()` of the one `NSLock`, so no two threads touch it at
/// once; and `Value: Sendable`, so nothing handed in or out of the lock (a copy of the value or a
/// part of it) can be used to reach shared mutable state around the lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Keep it short: every other thread that
    /// wants the value waits.
    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
