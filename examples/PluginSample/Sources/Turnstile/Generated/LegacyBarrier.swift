// Excluded from the Turnstile target (`exclude: ["Generated"]`): not compiled, and not read by the
// command plugin. If it were read, `stuck` would be reported as a dead end.
enum LegacyBarrierState { case idle, moving, stuck }
enum LegacyBarrierEvent { case go, halt, fail }

struct LegacyBarrier {
    var state: LegacyBarrierState = .idle

    mutating func handle(_ event: LegacyBarrierEvent) {
        switch (state, event) {
        case (.idle, .go):
            state = .moving
        case (.moving, .halt):
            state = .idle
        case (.moving, .fail):
            state = .stuck
        default:
            break
        }
    }
}
