import StickerKit

/// Where each input's stickers go: `DIR/[size/]name`, where the name is the input's relative
/// path with `.png` for its extension. Names are stable across runs: an input whose sticker
/// stickerkit wrote before keeps that name (the manifest records it). Two inputs never share a
/// name: a newcomer whose name is taken (by a recorded input, or by an earlier input in input
/// order) keeps its extension in the name (`cat.gif.png`, then `cat.gif-2.png`, …), and every
/// such rename is reported. Names are compared ignoring case, as macOS's file system does.
struct OutputPlan: Sendable {
    /// A name other than the input's own, and why.
    struct Rename: Sendable, Equatable {
        var name: BytePath
        /// The input whose sticker has the name this one would have had.
        var holder: InputFile?
        /// Whether the name was given in an earlier run (and recorded).
        var recorded: Bool
    }

    let directory: String
    let sizes: [StickerSize]
    /// One folder per size when more than one size is written.
    var perSizeFolders: Bool { sizes.count > 1 }
    private(set) var names: [InputFile: BytePath] = [:]
    private(set) var renames: [InputFile: Rename] = [:]

    /// A plan with the default names (no earlier run).
    init(directory: String, sizes: [StickerSize], inputs: [InputFile]) {
        self.init(directory: directory, sizes: sizes, inputs: inputs, recordedName: { _ in nil })
    }

    /// The extension of each input's sticker (`png` unless the platform says otherwise).
    private(set) var extensions: [InputFile: String] = [:]

    /// A plan in which every input with a recorded name keeps it (when its extension is the
    /// one `fileExtension` gives that input).
    init(directory: String, sizes: [StickerSize], inputs: [InputFile], fileExtension: (InputFile) -> String = { _ in "png" },
         recordedName: (InputFile) -> BytePath?) {
        self.directory = directory
        self.sizes = sizes
        for input in inputs { extensions[input] = fileExtension(input) }
        var taken: [String: InputFile] = [:]
        func key(_ name: BytePath) -> String { name.display.lowercased() }
        for input in inputs {
            guard let name = recordedName(input), taken[key(name)] == nil,
                  name.lowercasedExtension == extensions[input] else { continue }
            taken[key(name)] = input
            names[input] = name
            if name != defaultName(input) { renames[input] = Rename(name: name, holder: nil, recorded: true) }
        }
        for input in inputs where names[input] == nil {
            var name = defaultName(input)
            let ext = extensions[input] ?? "png"
            if let holder = taken[key(name)] {
                name = input.relative.appendingSuffix(".\(ext)")
                var k = 2
                while taken[key(name)] != nil {
                    name = input.relative.appendingSuffix("-\(k).\(ext)")
                    k += 1
                }
                renames[input] = Rename(name: name, holder: holder, recorded: false)
            }
            taken[key(name)] = input
            names[input] = name
        }
        for input in names.keys {
            for size in sizes { plannedPaths.insert(relativePath(for: input, size: size).display.lowercased()) }
        }
    }

    /// `sub/cat.png` for `sub/cat.gif` (`sub/cat.webp` where the platform writes WebP).
    func defaultName(_ input: InputFile) -> BytePath {
        input.relative.deletingExtension.appendingSuffix(".\(extensions[input] ?? "png")")
    }

    /// Every input the plan names.
    var inputs: [InputFile] { Array(names.keys) }

    /// Whether `relative` (below the output folder, ignoring case) is the path of a sticker of
    /// any input of the plan, at any of its sizes.
    func isPlanned(_ relative: BytePath) -> Bool { plannedPaths.contains(relative.display.lowercased()) }

    /// Every sticker path of the plan, lowercased (`isPlanned`).
    private var plannedPaths: Set<String> = []

    /// The name of `input`'s stickers, without the size folder.
    func name(for input: InputFile) -> BytePath { names[input] ?? defaultName(input) }

    /// The path of `input`'s sticker at `size`, relative to the output folder.
    func relativePath(for input: InputFile, size: StickerSize) -> BytePath {
        perSizeFolders ? BytePath(size.rawValue).appending(name(for: input)) : name(for: input)
    }

    /// The output path of `input` at `size`.
    func path(for input: InputFile, size: StickerSize) -> String {
        let p = BytePath(directory).appending(relativePath(for: input, size: size))
        return p.string ?? p.display
    }

    /// The warning for a renamed input, for stderr and the report.
    func renameMessage(_ input: InputFile) -> String? {
        guard let r = renames[input] else { return nil }
        if r.recorded {
            return "written as \(r.name.display), the name it was given in an earlier run (its own name was taken then)"
        }
        let holder = r.holder.map { " by \($0.shown.display)" } ?? ""
        return "\(defaultName(input).display) is taken\(holder); written as \(r.name.display)"
    }
}
