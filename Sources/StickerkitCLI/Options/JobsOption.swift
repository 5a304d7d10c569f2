import ArgumentParser
import Foundation

/// `-j/--jobs N`: how many files are converted at once.
struct JobsOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Files converted at once (default: all cores).")
    var jobs: Int?

    func validate() throws {
        if let j = jobs, j < 1 { throw ValidationError("--jobs must be at least 1 (got \(j))") }
    }

    /// The number of jobs: `--jobs`, else every core.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
