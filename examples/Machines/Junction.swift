// A traffic light whose state is one field of a struct, changed in a switch (dialect D9).
enum TrafficLight { case red, redAmber, green, amber, flashing }
enum TrafficEvent { case timer, fault, reset }

struct Junction {
    private(set) var light: TrafficLight = .red

    mutating func handle(_ event: TrafficEvent) {
        switch (light, event) {
        case (.red, .timer):
            light = .redAmber
        case (.redAmber, .timer):
            light = .green
        case (.green, .timer):
            light = .amber
        case (.amber, .timer):
            light = .red
        case (.flashing, .reset):
            light = .red
        case (_, .fault):
            light = .flashing
        default:
            break
        }
    }
}
