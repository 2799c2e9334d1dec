// A nested type hides the outer one; an extension of the nested type adds the machine's method;
// the event type is reached through a typealias.
enum Stage { case decoy }

struct Pump {
    enum Stage { case idle, priming, flowing }
    enum Command { case prime, flow, stop }
    var stage: Stage = .idle
}

typealias PumpCommand = Pump.Command

extension Pump.Stage {
    var isRunning: Bool { self != .idle }
}

extension Pump {
    mutating func apply(_ command: PumpCommand) {
        switch (stage, command) {
        case (.idle, .prime): stage = .priming
        case (.priming, .flow): stage = .flowing
        case (_, .stop): stage = .idle
        default: break
        }
    }
}
