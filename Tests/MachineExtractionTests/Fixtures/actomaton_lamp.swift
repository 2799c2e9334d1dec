import Actomaton

enum Lamp: Sendable { case off, warming, lit, cooling }
enum Press: Sendable { case on, warmedUp, abort, off, cooledDown, ping }

struct Env: Sendable {
    var allowsAbort: Bool
    var sleep: @Sendable (Int) async throws -> Void
}

struct LampLane: Newest1EffectQueueProtocol {}
struct LogLane: Oldest1DiscardNewEffectQueueProtocol {}
struct Pinger: EffectQueueProtocol {
    var effectQueuePolicy: EffectQueuePolicy { .runNewest(maxCount: 3) }
}
struct PingID: EffectIDProtocol {}

var lampReducer: Reducer<Press, Lamp, Env> {
    Reducer { press, lamp, env in
        switch (press, lamp) {
        case (.on, .off):
            lamp = .warming
            return Effect(queue: LampLane()) {
                try await env.sleep(1)
                return .warmedUp
            }
        case (.warmedUp, .warming):
            lamp = .lit
            return Effect.nextAction(.ping) + Effect.fireAndForget(queue: LogLane()) { print("lit") }
        case (.abort, .warming) where env.allowsAbort, (.abort, .lit) where env.allowsAbort:
            lamp = .cooling
            fallthrough
        case (.off, .lit):
            return Effect(queue: LampLane()) { .cooledDown }
        case (.cooledDown, .cooling):
            lamp = .off
            return .cancel(ids: { $0 is PingID })
        case (.ping, _):
            return Effect(id: PingID(), queue: Pinger()) { nil }
        default:
            return .empty
        }
    }
}

let lamp = Actomaton<Press, Lamp>(state: .off, reducer: lampReducer, environment: Env(allowsAbort: true, sleep: { _ in }))
