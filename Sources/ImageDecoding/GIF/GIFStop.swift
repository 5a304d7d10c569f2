/// giflib reported an error; the decoder looks at giflib's state to say what happened.
struct GIFStop: Error {}
