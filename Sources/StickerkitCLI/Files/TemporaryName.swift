import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of stickerkit's temporary files, `.stickerkit-tmp-HOST-PID-N`: hidden, recognisable,
/// short (whatever the length of the file being written), and saying which process on which
/// machine made them, so a later run can tell a file left by a killed run (remove it) from one
/// still being written (leave it).
struct TemporaryName: Equatable, Sendable {
    /// FNV-1a of the host name, in 8 hex digits: a shared output folder may be written by several
    /// machines, whose process ids mean nothing here.
    var host: String
    var pid: Int32
    var counter: Int

    static let prefix = ".stickerkit-tmp-"

    init(host: String, pid: Int32, counter: Int) {
        self.host = host
        self.pid = pid
        self.counter = counter
    }

    /// This machine's host tag.
    static let thisHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        var h: UInt32 = 0x811C_9DC5
        for c in buffer.prefix(while: { $0 != 0 }) { h = (h ^ UInt32(UInt8(bitPattern: c))) &* 0x0100_0193 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    /// A name for this process's `counter`-th temporary file.
    static func mine(_ counter: Int) -> TemporaryName {
        TemporaryName(host: thisHost, pid: getpid(), counter: counter)
    }

    var fileName: BytePath { BytePath("\(Self.prefix)\(host)-\(pid)-\(counter)") }

    /// The temporary file a name stands for: ours (`.stickerkit-tmp-HOST-PID-N`) or left by an
    /// earlier version (`.NAME.stickerkit-PID-N.tmp`, made on this machine); nil for any other
    /// name.
    init?(parsing name: BytePath) {
        guard let s = name.string, s.hasPrefix(".") else { return nil }
        if s.hasPrefix(Self.prefix) {
            let parts = s.dropFirst(Self.prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 8, parts[0].allSatisfy(\.isHexDigit),
                  let pid = Int32(parts[1]), pid > 0, let n = Int(parts[2]), n >= 0 else { return nil }
            self.init(host: String(parts[0]), pid: pid, counter: n)
            return
        }
        // The earlier form: "." + target name + ".stickerkit-" + pid + "-" + n + ".tmp".
        guard s.hasSuffix(".tmp"), let marker = s.range(of: ".stickerkit-", options: .backwards) else { return nil }
        let tail = s[marker.upperBound...].dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard marker.lowerBound > s.index(after: s.startIndex), tail.count == 2,
              let pid = Int32(tail[0]), pid > 0, let n = Int(tail[1]), n >= 0 else { return nil }
        self.init(host: Self.thisHost, pid: pid, counter: n)
    }

    /// Whether the file was left behind: made on this machine by a process that is gone, or by
    /// any process of this machine when `noOtherWriter` (the caller holds the output folder's
    /// exclusive lock, so no other run can be writing there). Files of other machines are never
    /// judged stale.
    func isStale(noOtherWriter: Bool) -> Bool {
        guard host == Self.thisHost, pid != getpid() else { return false }
        if noOtherWriter { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
