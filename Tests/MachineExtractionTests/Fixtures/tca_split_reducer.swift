import ComposableArchitecture

// A feature whose reducer is split into functions that take the state `inout`, and whose mode
// advances through a mutating method of its own enum.
@Reducer
struct Wizard {
    @ObservableState
    struct State: Equatable {
        var step: Step = .welcome
        var isSubmitting = false
    }

    enum Step: Equatable {
        case welcome, details, review, done

        mutating func advance() {
            switch self {
            case .welcome: self = .details
            case .details: self = .review
            case .review, .done: break
            }
        }
    }

    enum Action {
        case view(View)
        case submitResponse(Bool)
        enum View { case next, back, submit }
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .view(viewAction):
                return reduceView(into: &state, viewAction)
            case let .submitResponse(ok):
                finishSubmit(&state, success: ok)
                return .none
            }
        }
    }

    private func reduceView(into state: inout State, _ action: Action.View) -> Effect<Action> {
        switch action {
        case .next:
            state.step.advance()
            return .none
        case .back:
            if state.step == .review { state.step = .details }
            return .none
        case .submit:
            guard state.step == .review else { return .none }
            state.isSubmitting = true
            return .run { send in await send(.submitResponse(true)) }
        }
    }

    private func finishSubmit(_ state: inout State, success: Bool) {
        state.isSubmitting = false
        if success { state.step = .done }
    }
}
