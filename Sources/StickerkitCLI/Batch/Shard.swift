import ArgumentParser
import StickerPackaging

/// `--shard K/N`: a deterministic share of the inputs, so that N machines given the same inputs
/// and K = 1…N convert every file exactly once between them. The share is chosen by a stable hash
/// (`ContentDigest`, FNV-1a 64-bit) of each input's relative path, so adding a file moves no other file between
/// shards.
struct Shard {
    let index: Int
    let count: Int

    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw ValidationError("--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/8")
        }
        index = k
        count = n
    }

    func contains(_ relativePath: String) -> Bool {
        var h = ContentDigest()
        h.add(relativePath.utf8)
        return Int(h.value % UInt64(count)) == index - 1
    }

    func select(_ files: [InputFile]) -> [InputFile] { files.filter { contains($0.relativePath) } }
}
