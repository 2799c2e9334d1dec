import SwiftState

enum PlayerState: StateType {
    case idle, loading, playing, paused, buffering, failed
}

enum PlayerEvent: EventType {
    case load, ready, pause, resume, stall, fail, reset
}

final class PlayerController {
    var isOnline = true

    lazy var player = StateMachine<PlayerState, PlayerEvent>(state: .idle) { machine in
        machine.addRoutes(event: .load, transitions: [.idle => .loading, .failed => .loading])
        machine.addRoutes(event: .ready, transitions: [.loading => .playing, .buffering => .playing])
        machine.addRoutes(event: .pause, routes: [[.playing, .buffering] => .paused])
        machine.addRoutes(event: .resume, transitions: [.paused => .playing], condition: { [weak self] _ in
            self?.isOnline == true
        })
        // Two routes for one event from one state: the runtime takes whichever it finds first.
        machine.addRoutes(event: .stall, transitions: [.playing => .buffering])
        machine.addRoutes(event: .stall, transitions: [.playing => .failed])
        machine.addRoutes(event: .fail, transitions: [.any => .failed])
        machine.addRoutes(event: .any, transitions: [.failed => .any])

        // Event-less routes, taken with `player <- .idle`.
        machine.addRoute(.failed => .idle)
        machine.addRouteChain(.paused => .idle => .loading)

        machine.addHandler(event: .fail) { context in
            Analytics.track("player_failed", from: context.fromState)
        }
        machine.addHandler(.failed => .idle) { _ in
            resetBuffers()
        }
    }

    func stop() {
        player <- .idle
    }
}
