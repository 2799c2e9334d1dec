import Harvest

// A valve whose mapping is one function returning the next state, or nil (dialect D2).
enum Valve { case closed, opening, open, closing }
enum ValveInput { case openTapped, opened, closeTapped, closed, fault }

let valveMapping = Harvester<ValveInput, Valve>.Mapping { input, state in
    switch (state, input) {
    case (.closed, .openTapped):
        return .opening
    case (.opening, .opened):
        return .open
    case (.open, .closeTapped), (.opening, .closeTapped):
        return .closing
    case (.closing, .closed):
        return .closed
    case (_, .fault):
        return .closed
    default:
        return nil
    }
}

let valve = Harvester(state: Valve.closed, inputs: valveInputs, mapping: valveMapping)
