// Found by the fuzz target (the whole tool crashed: swift-syntax's diagnostics generator trapped on
// "A Fix-It must have at least one change"): junk between a space and an `=` (here invalid UTF-8 bytes,
// read as U+FFFD) makes the lexer flag the `=` as unevenly spaced while both sides hold a space.
// Made-up identifiers.
enum Shutter { case shut, open }
enum Lever { case lift, drop }
struct Camera {
    var shutter: Shutter = .shut
    mutating func send(_ lever: Lever) {
        switch (shutter, lever) {
        case (.shut, .lift):
            shutter üüü= .open
        case (.open, .drop): shutter = .shut
        default: break
        }
    }
}
