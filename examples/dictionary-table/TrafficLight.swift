/// A pedestrian-crossing light driven by a timer and a push button.
enum Signal {
    case red
    case redAmber
    case green
    case amber
    case flashingAmber
}

enum SignalInput {
    case timer
    case buttonPressed
    case powerFault
    case powerRestored
}

struct SignalKey: Hashable {
    let signal: Signal
    let input: SignalInput
}

let crossingTable: [SignalKey: Signal] = [
    SignalKey(signal: .red, input: .timer): .redAmber,
    SignalKey(signal: .redAmber, input: .timer): .green,
    SignalKey(signal: .green, input: .timer): .amber,
    SignalKey(signal: .green, input: .buttonPressed): .amber,
    SignalKey(signal: .amber, input: .timer): .red,
    SignalKey(signal: .red, input: .powerFault): .flashingAmber,
    SignalKey(signal: .green, input: .powerFault): .flashingAmber,
    SignalKey(signal: .amber, input: .powerFault): .flashingAmber,
    SignalKey(signal: .flashingAmber, input: .powerRestored): .red,
    // Added later for the "hold green while busy" experiment; traps at launch.
    SignalKey(signal: .green, input: .buttonPressed): .green,
]

final class CrossingController {
    private(set) var signal: Signal = .red

    func handle(_ input: SignalInput) {
        signal = crossingTable[SignalKey(signal: signal, input: input)] ?? signal
    }
}
