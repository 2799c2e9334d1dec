// A plain Swift state machine: a method switches over (state, event) and assigns the state.
enum Light {
    case red, redAmber, green, amber
    case flashingAmber
    // machine-viz: terminal
    case off
}

enum LightEvent {
    case timer
    case fault
    case repair
    case powerCut
}

final class Crossing {
    private(set) var light: Light = .red
    private(set) var faults = 0

    func handle(_ event: LightEvent) {
        switch (light, event) {
        case (.red, .timer):
            light = .redAmber
        case (.redAmber, .timer):
            light = .green
        case (.green, .timer):
            light = .amber
        case (.amber, .timer):
            light = .red
        case (.flashingAmber, .repair):
            resetToRed()
        case (_, .fault):
            faults += 1
            light = .flashingAmber
        case (.green, .fault):      // never reached: `(_, .fault)` above takes it
            light = .red
        case (_, .powerCut):
            light = .off
        default:
            break
        }
    }

    private func resetToRed() {
        light = .red
    }
}
