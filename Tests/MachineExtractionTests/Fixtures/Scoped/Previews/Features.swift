import ComposableArchitecture

@Reducer
struct Grinder {
    @ObservableState
    struct State: Equatable {
        var speed: Speed = .off
    }
    enum Speed { case off, slow, fast }
    enum Action { case spin, brake }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .spin: state.speed = state.speed == .off ? .slow : .fast
            case .brake: state.speed = .off
            }
            return .none
        }
    }
}

@Reducer
struct Mixer {
    @ObservableState
    struct State: Equatable {
        var speed: Speed = .paused
    }
    enum Speed { case paused, whisking }
    enum Action { case start, halt }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .start: state.speed = .whisking
            case .halt: state.speed = .paused
            }
            return .none
        }
    }
}
