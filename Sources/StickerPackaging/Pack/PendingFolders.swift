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
    /// written only inside `withLock`, between `lock()` and `unlock()` of the one `NSLock`.
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var building: Set<URL> = []
        var stopping = false
    }

    private static let shared = Shared()

    /// Stops every later catalog or icon set write (each throws `PackError.cannotWrite`, saying
    /// it was interrupted) and removes the folders under way. For a signal handler about to exit.
    public static func stopAndRemove() {
        let folders = withLock { s in
            s.stopping = true
            return s.building
        }
        for url in folders { remove(url) }
    }

    /// Lets writes start again after `stopAndRemove()`: for tests, which go on in one process.
    static func resume() {
        withLock { $0.stopping = false }
    }

    /// Runs `body` with `url` registered as under way; it is unregistered when `body` returns.
    /// Throws without running `body` once the process is stopping.
    static func track<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        try withLock { s in
            if s.stopping { throw PackError.cannotWrite(path: url.path, reason: "interrupted") }
            s.building.insert(url)
        }
        defer { withLock { _ = $0.building.remove(url) } }
        return try body()
    }

    /// Runs `swap` (quick: a rename or two) unless the process is stopping, and never at the
    /// same time as `stopAndRemove()`, so a swap is done whole or not started. The folder it
    /// returns (the old version moved aside) is under way until `finish` is done with it.
    static func swap(_ path: URL, _ swap: () throws -> URL?, then finish: (URL) -> Void) throws {
        let aside: URL? = try withLock { s in
            if s.stopping { throw PackError.cannotWrite(path: path.path, reason: "interrupted") }
            let aside = try swap()
            if let aside { s.building.insert(aside) }
            return aside
        }
        guard let aside else { return }
        finish(aside)
        withLock { _ = $0.building.remove(aside) }
    }

    private static func withLock<T>(_ body: (Shared) throws -> T) rethrows -> T {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return try body(shared)
    }

    /// Removes `url` and all it holds. The thread building it may still be adding files while
    /// this runs (a folder emptied and then given a new entry cannot be removed), so it tries a
    /// few times.
    private static func remove(_ url: URL) {
        for _ in 0..<5 {
            CatalogFiles.removeTree(url)
            if (try? url.checkResourceIsReachable()) != true { return }
        }
    }
}
