import ComposableArchitecture

// Found by the fuzz target (the JSON document did not read back to the same bytes): rules whose case
// pattern narrows the input (`.panel(.openTapped)`, `.reply(.failure)`) wrote `patterns`, and the
// decoder dropped them. Made-up identifiers; the shape of examples/tca and the conformance TCA cases.
@Reducer
struct Kettle {
    @ObservableState
    struct State: Equatable {
        var phase: Phase = .cold
        enum Phase: Equatable { case cold, heating, boiled, broken }
    }

    enum Action {
        case panel(Panel)
        case reply(Result<Int, any Error>)
        enum Panel { case openTapped, closeTapped }
    }

    private enum CancelID { case heat }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .panel(.openTapped):
                state.phase = .heating
                return .run { send in await send(.reply(.success(100))) }
                    .cancellable(id: CancelID.heat)
            case .panel(.closeTapped):
                state.phase = .cold
                return .cancel(id: CancelID.heat)
            case .reply(.success):
                state.phase = .boiled
                return .none
            case .reply(.failure):
                state.phase = .broken
                return .none
            }
        }
    }
}
