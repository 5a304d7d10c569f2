import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// On SIGINT or SIGTERM: stop starting new writes, remove every temporary file still being
/// written, say so, and exit with 130 / 143. Finished outputs stay; a rerun continues from there.
enum Interrupts {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(terminal: Terminal) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler {
                AtomicFile.stopAndRemovePending()
                terminal.finishProgress()
                terminal.error("stickerkit: interrupted; finished stickers are kept, partial ones removed (rerun to continue)")
                exit(128 + sig)
            }
            src.resume()
            sources.append(src)
        }
    }
}
