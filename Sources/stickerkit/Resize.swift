import ArgumentParser
import StickerKit

struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Convert images and folders into stickers.")

    @Argument(help: "Input files or folders (recursive).")
    var inputs: [String]

    func run() throws {}
}
