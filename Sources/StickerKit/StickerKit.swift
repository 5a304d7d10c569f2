// What `import StickerKit` gives: the library's own API (StickerConverter, Artwork, ConversionOptions, …)
// and the value types that API speaks. Catalogs, check, icon sets and previews are StickerPackaging.
//
// ImageCore is re-exported whole: it holds only values shared by every stage (Image, RGBA,
// Animation, Frame, Delay, Limits, ImageFormat, ImageError) and no stage's behaviour. Of the
// stages, only the two option enums ConversionOptions takes are re-exported. Their decoders,
// resizers, quantizers and encoders stay behind StickerKit's API, so a user (the CLI first) goes
// through StickerKit rather than around it; a program that wants a stage itself imports it.
@_exported import ImageCore
@_exported import enum ImageResize.FitMode
@_exported import enum PNGEncoding.Effort
@_exported import enum StickerEncoding.StickerContainer
