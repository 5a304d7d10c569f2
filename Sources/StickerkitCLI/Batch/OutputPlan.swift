import Foundation
import StickerKit

/// Where each input's stickers go: `DIR/[size/]relative/path/name.png`. Two inputs that would
/// land on the same output never overwrite each other: the later ones (in input order) keep
/// their original extension in the name (`cat.jpg.png`) and get a warning.
struct OutputPlan: Sendable {
    let directory: String
    let sizes: [StickerSize]
    /// One folder per size when more than one size is written.
    var perSizeFolders: Bool { sizes.count > 1 }
    private(set) var stems: [InputFile: String] = [:]
    private(set) var renamed: [InputFile: String] = [:]

    init(directory: String, sizes: [StickerSize], inputs: [InputFile]) {
        self.directory = directory
        self.sizes = sizes
        var taken: [String: InputFile] = [:]
        for input in inputs {
            let rel = input.relativePath
            let base = (rel as NSString).deletingPathExtension
            var stem = base
            if taken[stem.lowercased()] != nil {
                stem = rel
                var k = 2
                while taken[stem.lowercased()] != nil { stem = "\(rel)-\(k)"; k += 1 }
                renamed[input] = stem + ".png"
            }
            taken[stem.lowercased()] = input
            stems[input] = stem
        }
    }

    /// The output path of `input` at `size`.
    func path(for input: InputFile, size: StickerSize) -> String {
        let rel = (stems[input] ?? input.relativePath) + ".png"
        let folder = perSizeFolders ? (directory as NSString).appendingPathComponent(size.rawValue) : directory
        return (folder as NSString).appendingPathComponent(rel)
    }

    /// Inputs written under another name than their own, with that name (see the type's comment).
    func renamedInputs(_ inputs: [InputFile]) -> [(InputFile, String)] {
        inputs.compactMap { i in renamed[i].map { (i, $0) } }
    }
}
