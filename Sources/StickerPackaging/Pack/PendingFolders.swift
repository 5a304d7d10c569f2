import Foundation

/// The folders a catalog or icon set write has under way beside their place (a new version being
/// built, or the old one moved aside until the new one is in place), so that an interrupted
/// process can remove them at once instead of leaving them hidden until a later run
/// (`CatalogFiles.removeLeftovers` still clears what a killed process left).
///
/// A program that handles SIGINT or SIGTERM calls `stopAndRemove()` from its handler before it
/// exits: the swap of a new version into place is never cut in half (it holds the same lock), no
/// write starts after it, and the folders under way are removed.
public enum PendingFolders {
    /// What every writer shares. `@unchecked Sendable`: `building` and `stopping` are read or
    /// written only between `lock()` and `unlock()` of the one `NSCondition`, which is signalled
    /// whenever a folder stops being under way.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var building: Set<URL> = []
        var stopping = false
    }

    private static let shared = Shared()

    /// How long `stopAndRemove()` waits for the writes under way to stop and remove their folders
    /// themselves before it removes what is left.
    static let stopWait: TimeInterval = 5

    /// Stops every later catalog or icon set write (each throws `PackError.cannotWrite`, saying
    /// it was interrupted) and returns once the folders under way are gone. For a signal handler
    /// about to exit.
    ///
    /// A write under way notices the stop at its next file (`checkGoingOn`), removes its folder
    /// and unregisters it; this waits for that, up to `stopWait`. Removing a folder while its
    /// writer still adds to it could not be done reliably: a tree of 20,000 files was refilled
    /// faster than it was emptied, and the process exited leaving it half built.
    public static func stopAndRemove() {
        stopAndRemove(waitingAtMost: stopWait)
    }

    /// `stopAndRemove()` waiting at most `limit` seconds for the writes under way; what they
    /// have not removed by then is moved to a new name (where its writer can add nothing more)
    /// and removed.
    static func stopAndRemove(waitingAtMost limit: TimeInterval) {
        let c = shared.condition
        c.lock()
        shared.stopping = true
        let deadline = Date(timeIntervalSinceNow: limit)
        while !shared.building.isEmpty && c.wait(until: deadline) {}
        let left = shared.building
        c.unlock()
        for url in left { remove(url) }
    }

    /// Lets writes start again after `stopAndRemove()`: for tests, which go on in one process.
    static func resume() {
        withLock { $0.stopping = false }
    }

    /// Throws `PackError.cannotWrite` for `url` (saying it was interrupted) once the process is
    /// stopping. A write into a folder under way calls it before each file or folder it makes.
    static func checkGoingOn(_ url: URL) throws {
        try withLock { try goingOn($0, url) }
    }

    /// Throws what `checkGoingOn` throws, under the lock already held.
    private static func goingOn(_ s: Shared, _ url: URL) throws {
        if s.stopping { throw PackError.cannotWrite(path: url.path, reason: "interrupted") }
    }

    /// Runs `body` with `url` registered as under way; it is unregistered when `body` returns.
    /// Throws without running `body` once the process is stopping.
    static func track<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        try withLock { s in
            try goingOn(s, url)
            s.building.insert(url)
        }
        defer { finished(url) }
        return try body()
    }

    /// Runs `swap` (quick: a rename or two) unless the process is stopping, and never at the
    /// same time as `stopAndRemove()`, so a swap is done whole or not started. The folder it
    /// returns (the old version moved aside) is under way until `finish` is done with it.
    static func swap(_ path: URL, _ swap: () throws -> URL?, then finish: (URL) -> Void) throws {
        let aside: URL? = try withLock { s in
            try goingOn(s, path)
            let aside = try swap()
            if let aside { s.building.insert(aside) }
            return aside
        }
        guard let aside else { return }
        finish(aside)
        finished(aside)
    }

    /// `url` is no longer under way: wakes a `stopAndRemove()` waiting for it.
    private static func finished(_ url: URL) {
        withLock { s in
            s.building.remove(url)
            shared.condition.broadcast()
        }
    }

    private static func withLock<T>(_ body: (Shared) throws -> T) rethrows -> T {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        return try body(shared)
    }

    /// Removes `url` and all it holds while the thread building it may still be running: first
    /// renamed (in the same folder, under a name `CatalogFiles.removeLeftovers` still knows),
    /// so that the writer's later files fail instead of landing in the tree being emptied.
    private static func remove(_ url: URL) {
        let gone = URL(fileURLWithPath: url.path + "-removing")
        let target = rename(url.path, gone.path) == 0 ? gone : url
        for _ in 0..<5 {
            CatalogFiles.removeTree(target)
            if (try? target.checkResourceIsReachable()) != true { return }
        }
    }
}
