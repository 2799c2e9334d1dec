import Actomaton

// Actomaton gallery style: a namespace enum with Action, State, Environment and a static reducer
// written as `.init { … }`.
public enum Stopwatch {
    public enum Action: Sendable { case start, tick, stop, reset }

    public enum State: Equatable, Sendable {
        case idle
        case running(seconds: Int)
        case stopped(seconds: Int)
    }

    public struct Environment: Sendable { public var clock: @Sendable () async -> Void }

    struct TimerID: EffectIDProtocol {}

    public static var reducer: Reducer<Action, State, Environment> {
        .init { action, state, environment in
            switch (action, state) {
            case (.start, .idle), (.start, .stopped):
                state = .running(seconds: 0)
                return Effect(id: TimerID(), sequence: {
                    AsyncStream { continuation in continuation.yield(.tick) }
                })
            case let (.tick, .running(seconds)):
                state = .running(seconds: seconds + 1)
                return .empty
            case let (.stop, .running(seconds)):
                state = .stopped(seconds: seconds)
                return Effect.cancel(id: TimerID())
            case (.reset, _):
                state = .idle
                return Effect.cancel(id: TimerID())
            default:
                return .empty
            }
        }
    }
}
