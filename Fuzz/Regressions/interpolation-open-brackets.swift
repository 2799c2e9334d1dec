// Found by the fuzz target (a timeout: the parser ran for minutes): square brackets left open inside a
// string interpolation, which is code to the parser, were skipped as string text by the depth guard, so
// the parser's exponential lookahead met all 40 of them. Made-up identifiers.
enum Hatch { case sealed, ajar }
enum Knob { case turn, press }
struct Vault {
    var hatch: Hatch = .sealed
    func log(_ from: Hatch) -> String { "left \(from[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[.self)" }
    mutating func send(_ knob: Knob) {
        switch (hatch, knob) {
        case (.sealed, .turn):
            hatch = .ajar
        case (.ajar, .press):
            hatch = .sealed
        default:
            break
        }
    }
}
