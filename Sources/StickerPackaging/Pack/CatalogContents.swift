import ImageCore

/// The Contents.json shapes of an Xcode sticker catalog (`.xcstickers`), as Codable values so
/// that JSON is always written by an encoder. Keys follow Apple's Asset Catalog Format Reference
/// ("Sticker Pack Type", "Sticker Type", "Sticker Sequence Type", "Sticker Icon Set Type").
enum CatalogContents {
    /// `{"author":"xcode","version":1}`: what Xcode itself writes.
    struct Info: Codable, Equatable {
        var author = "xcode"
        var version = 1
    }

    /// The catalog's root `Contents.json`.
    struct Root: Codable, Equatable {
        var info = Info()
    }

    struct FileReference: Codable, Equatable {
        var filename: String
    }

    /// `Sticker Pack.stickerpack/Contents.json`.
    struct Pack: Codable, Equatable {
        struct Properties: Codable, Equatable {
            var gridSize: String
            enum CodingKeys: String, CodingKey { case gridSize = "grid-size" }
        }
        var info = Info()
        var properties: Properties
        var stickers: [FileReference]
    }

    /// `NAME.sticker/Contents.json`.
    struct Sticker: Codable, Equatable {
        struct Properties: Codable, Equatable {
            var filename: String
            var accessibilityLabel: String?
            enum CodingKeys: String, CodingKey { case filename, accessibilityLabel = "accessibility-label" }
        }
        var info = Info()
        var properties: Properties
    }

    /// `NAME.stickersequence/Contents.json`.
    struct Sequence: Codable, Equatable {
        struct Properties: Codable, Equatable {
            var accessibilityLabel: String?
            /// Frames per second when `durationType` is "fps"; seconds per loop when "fixed".
            var duration: Double
            var durationType: String
            /// Repeats after the first play; 0 = forever.
            var repetitions: Int
            enum CodingKeys: String, CodingKey {
                case accessibilityLabel = "accessibility-label", duration, durationType = "duration-type", repetitions
            }
        }
        var info = Info()
        var properties: Properties
        var frames: [FileReference]
    }

    /// `iMessage App Icon.stickersiconset/Contents.json`.
    struct IconSet: Codable, Equatable {
        struct Image: Codable, Equatable {
            var filename: String
            var idiom: String
            var platform: String?
            var scale: String
            var size: String
        }
        var images: [Image]
        var info = Info()
    }
}
