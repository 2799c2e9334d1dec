import Actomaton

// Found by the fuzz target (the SVG was not well-formed XML): a control character in the source text
// of a condition (U+0004 here; U+007F and U+FFFF below), which XML 1.0 forbids even escaped, went into
// an edge label, and libgvc copies label text into the SVG as it is. Made-up identifiers.
enum KilnState: Equatable, Sendable {
    case cold
    case firing(heat: Int)
    case cooled
}

enum KilnAction: Sendable {
    case light
    case stoke(Int)
    case douse
    case open
}

let kilnReducer = Reducer<KilnAction, KilnState, Void> { action, state, _ in
    switch action {
    case .light:
        guard state == .cold else { return .empty }
        state = .firing(heat: 1)
        return .empty
    case let .stoke(heat):
        guard case .firing = state else { return .empty }
        state = .firing(heat: heat)
        return .empty
    case .douse:
        guard case .firing = state else { return .empty }
        state = .cooled
        return .empty
    case .open:
        guard case .coo￿led = state else { return .empty }
        state = .cold
        return .empty
    }
}
