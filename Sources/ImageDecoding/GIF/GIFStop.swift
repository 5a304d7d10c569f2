/// A frame could not be read; the decoder names the place. `reason` is the problem when the
/// decoder found it before giflib (otherwise giflib's state tells).
struct GIFStop: Error {
    var reason: GIFError?
}
