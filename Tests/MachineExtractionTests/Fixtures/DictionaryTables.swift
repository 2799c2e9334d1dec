enum Light { case off, dim, bright, broken }
enum Pulse { case tick, hold, surge }

struct LightKey: Hashable {
    let state: Light
    let event: Pulse
}

let lightTable: [LightKey: Light] = [
    LightKey(state: .off, event: .tick): .dim,
    LightKey(state: .dim, event: .tick): .bright,
    LightKey(state: .bright, event: .tick): .off,
    LightKey(state: .dim, event: .hold): .off,
    LightKey(state: .dim, event: .tick): .off,
]

final class Lamp {
    var light: Light = .off

    func handle(_ pulse: Pulse) {
        light = lightTable[LightKey(state: light, event: pulse)] ?? .broken
    }
}

enum Upload { case waiting, sending, done, failed }
enum UploadEvent { case start, finish, error, retry }

let uploadTable: [Upload: [UploadEvent: Upload]] = [
    .waiting: [.start: .sending],
    .sending: [.finish: .done, .error: .failed],
    .failed: [.retry: .sending],
]

func next(_ state: Upload, _ event: UploadEvent) -> Upload {
    uploadTable[state]?[event] ?? state
}

enum Gate { case shut, ajar }
enum GateInput { case nudge, slam }

struct GateKey: Hashable { let gate: Gate; let input: GateInput }

// A table with no lookup in the file.
let gateTable: [GateKey: (Gate, String)] = [
    GateKey(gate: .shut, input: .nudge): (.ajar, "creak"),
    GateKey(gate: .ajar, input: .slam): (.shut, "bang"),
]
