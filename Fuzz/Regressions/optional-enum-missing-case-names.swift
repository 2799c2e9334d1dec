// Found by the fuzz target (a crash, SIGILL, in the command line too; stretch 21): an optional enum
// property of a `switch` method whose enum has two cases the parser found without a name; the
// machine's value states were built with one entry per case name and trapped on the second empty
// name. Made-up identifiers.
enum Tide { c    case (. .low
        case (rising?, .wax): tide = .high
        default: base low, rising, high, falling }
enum Moon { case wax, wane }
final class Harbor {
    private(set) var tide: Tide? = nil
    func apply(_ m: Moon) {
        switch (tide, m) {
        case (nil, _): tide = .low
        case (.low?, .wax): tide = .rising
        case (.falling?, .wane): tide = .low
        default: break
        }
    }
}
