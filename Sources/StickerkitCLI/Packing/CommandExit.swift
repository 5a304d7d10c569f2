import ArgumentParser
import Foundation

/// One error line on stderr, and the exit status to throw with it: 2 when the command line asks
/// for something that cannot be (a path in the way, a labels file that does not read), 1 when the
/// work failed.
enum CommandExit {
    static func usage(_ line: String) -> ExitCode {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        return ExitCode(2)
    }

    static func failure(_ line: String) -> ExitCode {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        return ExitCode(1)
    }
}
