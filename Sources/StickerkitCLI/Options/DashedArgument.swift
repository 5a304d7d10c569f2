/// A file name that starts with `-` (`-dash.png`) looks like options to the parser: `-dash.png`
/// would be read as `-d -a -s -h …`, and `-h` prints the help and exits 0, converting nothing.
/// Such an argument is a usage error that names the two ways to pass the file.
enum DashedArgument {
    /// Letters of the short flags that may be combined (`-qv`).
    static let combinableFlags: Set<Character> = ["q", "v", "h"]

    /// The message for the first argument (before `--`) that starts with one `-`, is more than
    /// one letter long and is not a combination of short flags or a number; nil when there is
    /// none.
    static func problem(in arguments: [String]) -> String? {
        for arg in arguments {
            if arg == "--" { return nil }
            guard arg.hasPrefix("-"), !arg.hasPrefix("--"), arg.count > 2, Double(arg) == nil else { continue }
            if arg.dropFirst().allSatisfy(combinableFlags.contains) { continue }
            return "\(arg): not an option. To name a file that starts with '-', write ./\(arg), "
                + "or put it after -- (e.g. stickerkit resize -o out -- \(arg))"
        }
        return nil
    }
}
