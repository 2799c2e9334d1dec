import ComposableArchitecture
import Foundation

// Legacy TCA (<= 0.39): global reducer values, local cancel-id types, pullback and combine.
struct TimerState: Equatable {
    var isRunning = false
    var phase: TimerPhase = .stopped
    var secondsElapsed = 0
}

enum TimerPhase: Equatable { case stopped, running, paused }

enum TimerAction: Equatable {
    case startTapped
    case pauseTapped
    case resetTapped
    case tick
    case nested(NestedAction)
}

enum NestedAction: Equatable { case ping, pong }

struct TimerEnvironment {
    var mainQueue: AnySchedulerOf<DispatchQueue>
}

let timerReducer = Reducer<TimerState, TimerAction, TimerEnvironment> { state, action, environment in
    struct TimerId: Hashable {}
    enum PingID {}

    switch action {
    case .startTapped where state.phase == .stopped, .pauseTapped where state.phase == .paused:
        state.phase = .running
        state.isRunning = true
        return Effect.timer(id: TimerId(), every: 1, on: environment.mainQueue)
            .map { _ in TimerAction.tick }

    case .pauseTapped where state.phase == .running:
        state.phase = .paused
        state.isRunning = false
        return .cancel(id: TimerId())

    case .startTapped, .pauseTapped:
        return .none

    case .resetTapped:
        state = TimerState()
        return .merge(.cancel(id: TimerId()), .cancel(id: PingID.self))

    case .tick:
        state.secondsElapsed += 1
        return .none

    case .nested(.ping):
        return Effect(value: .nested(.pong))
            .cancellable(id: PingID.self, cancelInFlight: true)

    case .nested:
        return .none
    }
}

struct AppState: Equatable { var timer = TimerState() }
enum AppAction: Equatable { case timer(TimerAction) }

let appReducer = Reducer<AppState, AppAction, TimerEnvironment>.combine(
    timerReducer.pullback(state: \.timer, action: /AppAction.timer, environment: { $0 })
)
