import Shared

final class Tower {
    var beacon: Beacon = .dark

    func handle(_ trigger: Trigger) {
        switch (beacon, trigger) {
        case (.dark, .on): beacon = .lit
        case (.lit, .blink): beacon = .flashing
        case (_, .off): beacon = .dark
        default: break
        }
    }
}
