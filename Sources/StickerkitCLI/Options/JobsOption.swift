import ArgumentParser
import Foundation

/// `-j/--jobs N`: how many files are converted at once, which is also how many cores the run uses
/// (`ConcurrentJobs` sets the process's `CorePool` to N: a file's work uses a second core only
/// when a job's core is free).
struct JobsOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Files converted at once, and cores used (default: all cores).")
    var jobs: Int?

    func validate() throws {
        if let j = jobs, j < 1 { throw ValidationError("--jobs must be at least 1 (got \(j))") }
    }

    /// The number of jobs: `--jobs`, else every core.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
