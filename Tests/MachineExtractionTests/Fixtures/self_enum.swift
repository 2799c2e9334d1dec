enum Traffic {
    case red, green, yellow
    // machine-viz: initial
    case off

    mutating func handle(_ event: Signal) {
        switch (self, event) {
        case (.red, .next): self = .green
        case (.green, .next): self = .yellow
        case (.yellow, .next): self = .red
        case (_, .power):
            self = .off
        #if DEBUG
        case (.off, .next): self = .red
        #endif
        default: break
        }
    }
}
enum Signal { case next, power }

enum Phase {
    case a, b
    func next(_ e: Step) -> Phase? {
        switch self {
        case .a: return e == .go ? .b : nil
        case .b: return nil
        }
    }
}
enum Step { case go, stop }
