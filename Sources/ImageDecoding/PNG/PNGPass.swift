/// One pass of the image data: the whole image, or one of Adam7's seven sub-images.
struct PNGPass {
    let x0: Int, y0: Int, dx: Int, dy: Int
    let width: Int, height: Int
}
