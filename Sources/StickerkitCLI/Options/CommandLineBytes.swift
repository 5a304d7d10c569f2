import Foundation

/// The command line as the system passed it. Swift decodes arguments into strings and replaces
/// bytes that are not UTF-8 with U+FFFD, which would turn a file name in another encoding into a
/// name that does not exist; paths are taken from the raw bytes instead.
enum CommandLineBytes {
    /// Every argument's bytes, the command's name first.
    static var raw: [[UInt8]] {
        (0..<Int(CommandLine.argc)).compactMap { i in
            CommandLine.unsafeArgv[i].map { p in
                Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
            }
        }
    }

    /// The path an argument (or an option's value) names, with the bytes that were typed.
    static func path(for argument: String) -> BytePath {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return BytePath(argument) }
        for bytes in raw {
            if String(decoding: bytes, as: UTF8.self) == argument { return BytePath(bytes: bytes) }
            // `--report=VALUE`
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")), bytes.first == UInt8(ascii: "-"),
               String(decoding: bytes[(eq + 1)...], as: UTF8.self) == argument {
                return BytePath(bytes: Array(bytes[(eq + 1)...]))
            }
        }
        return BytePath(argument)
    }
}
