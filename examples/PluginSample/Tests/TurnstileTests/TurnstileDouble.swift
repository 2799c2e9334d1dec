// A test target: the command plugin reads it only when named (`--target TurnstileTests`). If it were
// read by default, `frozen` would be reported as a dead end.
@testable import Turnstile

enum DoubleState { case ready, frozen }
enum DoubleEvent { case freeze }

struct TurnstileDouble {
    var state: DoubleState = .ready

    mutating func handle(_ event: DoubleEvent) {
        switch (state, event) {
        case (.ready, .freeze):
            state = .frozen
        default:
            break
        }
    }
}
