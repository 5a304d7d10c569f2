import ArgumentParser

/// Path-valued options: an empty value names nothing (a shell variable never set, as in
/// `-o "$OUT"`), where the file system would take it for the current folder. It is refused as a
/// usage error before anything is read or written. Empty input arguments are named by
/// `InputDiscovery` instead, and the other inputs go on.
enum PathArgument {
    /// Throws when `value` is given and empty; `what` says what `option` must name.
    static func requireNonEmpty(_ value: String?, _ option: String, naming what: String) throws {
        if value?.isEmpty == true { throw ValidationError("\(option) is empty: it must name \(what)") }
    }
}
