// The library face: StickerKit re-exports the value types its API speaks (images, decoding
// results, fit and effort options) so that users import one module.
@_exported import ImageCore
@_exported import ImageDecoding
@_exported import ImageResize
@_exported import PNGEncoding
