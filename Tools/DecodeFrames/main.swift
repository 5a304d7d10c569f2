import Foundation
import ImageCore
import ImageDecoding

// decode-frames: writes what Stickerkit's decoder makes of one file, for comparisons with other
// decoders (scripts/test-browser compares it with Chromium's). Not part of the product.
//
//   DecodeFrames [--lenient] FILE FRAMES.rgba
//
// FRAMES.rgba receives every frame on the full canvas, RGBA, one after the other (streamed: one
// frame is held at a time). Standard output gets one JSON object: format, width, height, frames,
// loopCount, delays as displayed and as stored (milliseconds), warnings; or, when decoding fails,
// {"error": …, "kind": …} and exit status 1. Exit status 2: usage or I/O problem.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DecodeFrames: \(message)\n".utf8))
    exit(2)
}

func json(_ object: [String: Any]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { fail("cannot encode JSON") }
    return String(decoding: data, as: UTF8.self)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var lenient = false
if arguments.first == "--lenient" {
    lenient = true
    arguments.removeFirst()
}
guard arguments.count == 2 else { fail("usage: DecodeFrames [--lenient] FILE FRAMES.rgba") }
guard let data = FileManager.default.contents(atPath: arguments[0]) else { fail("cannot read \(arguments[0])") }
guard FileManager.default.createFile(atPath: arguments[1], contents: nil),
      let out = FileHandle(forWritingAtPath: arguments[1]) else { fail("cannot write \(arguments[1])") }
let bytes = [UInt8](data)

var displayed: [Double] = []
do {
    let info = try ImageDecoder.decodeFrames(bytes, options: DecodeOptions(lenient: lenient)) { frame in
        frame.image.pixels.withUnsafeBytes { out.write(Data($0)) }
        displayed.append(frame.delay.milliseconds)
    }
    try out.close()
    // Delays as stored, from the whole structure (a plan stops at an APNG's first IDAT).
    let outline = (try? ImageOutline.inspect(bytes)) ?? ImageOutline.read(bytes)
    let stored = outline?.storedDelays.map(\.milliseconds) ?? []
    print(json(["format": info.format.rawValue, "width": info.width, "height": info.height, "frames": info.frameCount,
                "loopCount": info.loopCount, "delaysMs": displayed, "storedDelaysMs": stored, "warnings": info.warnings]))
} catch let error as ImageError {
    print(json(["error": error.description, "kind": error.kind.rawValue]))
    exit(1)
} catch {
    print(json(["error": "\(error)", "kind": "unknown"]))
    exit(1)
}
