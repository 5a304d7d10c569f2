import Foundation

/// Results written by concurrent jobs, one slot each.
public final class ConcurrentResults: @unchecked Sendable {
    // Safe: every job writes only its own slot, under the lock, and `values` is read after
    // `concurrentPerform` has returned.
    private let lock = NSLock()
    private var slots: [[UInt8]?]
    public init(count: Int) { slots = Array(repeating: nil, count: count) }
    public func set(_ i: Int, _ value: [UInt8]?) { lock.lock(); slots[i] = value; lock.unlock() }
    public var values: [[UInt8]?] { lock.lock(); defer { lock.unlock() }; return slots }
}
