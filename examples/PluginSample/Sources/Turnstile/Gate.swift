// A barrier gate. Two of its states have no way out, on purpose:
// - `sealed` is declared terminal for this machine in the package's .machine-viz.yml,
// - `jammed` carries an inline suppression.
// Neither is reported, by `machine-viz lint` nor by the build-tool plugin.
public enum GateState {
    case open
    case closed
    case sealed
    // machine-viz:disable:next dead_end_state - a jammed gate waits for a technician
    case jammed
}

public enum GateEvent { case raise, lower, seal, jam }

public struct Gate {
    public private(set) var state: GateState = .closed

    public init() {}

    public mutating func handle(_ event: GateEvent) {
        switch (state, event) {
        case (.closed, .raise):
            state = .open
        case (.open, .lower):
            state = .closed
        case (.closed, .seal):
            state = .sealed
        case (.open, .jam):
            state = .jammed
        default:
            break
        }
    }
}
