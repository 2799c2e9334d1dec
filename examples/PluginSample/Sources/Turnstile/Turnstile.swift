// A coin-operated turnstile, written as a switch over (state, event) in a mutating method.
// `broken` is reachable and has no way out, so the build-tool plugin reports it as a warning.
public enum TurnstileState { case locked, unlocked, broken }
public enum TurnstileEvent { case coin, push, kick }

public struct Turnstile {
    public private(set) var state: TurnstileState = .locked

    public init() {}

    public mutating func handle(_ event: TurnstileEvent) {
        switch (state, event) {
        case (.locked, .coin):
            state = .unlocked
        case (.unlocked, .push):
            state = .locked
        case (_, .kick):
            state = .broken
        default:
            break
        }
    }
}
