import StickerKit

/// Jobs shared among threads: each thread takes the next job as it finishes one, until none is
/// left. What `resize`, `pack` and `bench` run their files on.
enum ConcurrentJobs {
    /// Runs `body(i)` once for every job `i` in `0..<count`, on up to `workers` threads, with the
    /// process's `CorePool` set to `workers` cores: a job uses another core (a large still's split
    /// deflate) only while a worker has run out of jobs, or when there are fewer jobs than
    /// workers. On more than one thread the jobs start longest first by `estimatedWork(i)` (see
    /// `longestFirst`), which is asked only then; on one, in order.
    static func run(count: Int, workers: Int, estimatedWork: (Int) -> Double, _ body: @Sendable (Int) -> Void) {
        let threads = max(1, min(workers, count))
        let order = threads > 1 ? longestFirst((0..<count).map(estimatedWork)) : Array(0..<count)
        let nextToStart = Locked(0)
        CorePool.shared.run(cores: max(1, workers), workers: threads) { _ in
            while true {
                let next = nextToStart.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard next < count else { return }
                body(order[next])
            }
        }
    }

    /// Indices in the order to start jobs of estimated `work` on several threads: the most work
    /// first, input order among equals. Started in input order, a long animation that comes last
    /// runs alone while the other cores idle (the animated corpus at 618 px: 19 s wall on 2 jobs
    /// for 33 s of CPU); longest first leaves the short files to fill the end.
    static func longestFirst(_ work: [Double]) -> [Int] {
        work.indices.sorted { work[$0] > work[$1] || (work[$0] == work[$1] && $0 < $1) }
    }
}
