import Dispatch
import Foundation
import StickerPackaging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// While it is handling (from `init` to `stop()`), on SIGINT or SIGTERM: stop starting new
/// writes, remove every temporary file still being written (`AtomicFile`) and every catalog or
/// icon set folder still being built (`PendingFolders`), say so, and exit with 130 / 143.
/// Finished outputs stay; a rerun continues from there.
///
/// The command that writes holds the handler for as long as it writes
/// (`let interrupts = Interrupts(terminal:)`, `defer { interrupts.stop() }`): the signal sources
/// live exactly that long, and no global state is needed to keep them.
final class Interrupts {
    private static let signals = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]
    /// Who ends the process: the handler, once a signal is being handled, or the command, once
    /// `stop()` was called. Whichever comes first; the other stands aside.
    private let owner = Locked(Owner.none)

    private enum Owner: Sendable { case none, handler, command }

    /// What the line on stderr says after "stickerkit: interrupted; " for a batch of stickers.
    static let batchOutcome = "finished stickers are kept, partial ones removed (rerun to continue)"

    /// `outcome` ends the line said on stderr: what was kept and what removed.
    init(terminal: Terminal, outcome: String = Interrupts.batchOutcome) {
        let owner = self.owner
        sources = Interrupts.signals.map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                let first = owner.withLock { o in
                    guard o == .none else { return false }
                    o = .handler
                    return true
                }
                // Either another signal is being handled, or the command has finished and is
                // on its way out with every output written.
                guard first else { return }
                AtomicFile.stopAndRemovePending()
                PendingFolders.stopAndRemove()
                terminal.finishProgress()
                terminal.error("stickerkit: interrupted; " + outcome)
                // `_exit`, not `exit`: the job threads are still running, and `exit` would
                // run the process's exit handlers and destructors under them. Every output
                // is already on disk or removed; only buffered standard output is left.
                fflush(nil)
                _exit(128 + sig)
            }
            source.resume()
            return source
        }
    }

    /// Stops handling: the signals get their default action again. When a signal is already
    /// being handled, this never returns: the handler is removing what is under way and exits
    /// with the signal's status. (A write stopped by the handler fails, and the command, let
    /// go on, ended the process with 1 while the handler was still at work.)
    func stop() {
        if owner.withLock({ o in
            if o == .none { o = .command }
            return o == .handler
        }) {
            while true { pause() }
        }
        for source in sources { source.cancel() }
        for sig in Interrupts.signals { signal(sig, SIG_DFL) }
    }
}
