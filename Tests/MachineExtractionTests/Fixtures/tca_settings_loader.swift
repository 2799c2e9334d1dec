import ComposableArchitecture

@Reducer
struct Settings {
    @ObservableState
    struct State: Equatable {
        var isNotificationsOn = false
        var theme: Theme = .system
        var sync = SyncFeature.State()
        @Presents var destination: Destination.State?
    }
    enum Theme: String, CaseIterable { case system, light, dark }
    enum Action: BindableAction {
        case binding(BindingAction<State>)
        case sync(SyncFeature.Action)
        case destination(PresentationAction<Destination.Action>)
        case themeTapped(Theme)
        case aboutTapped
        case task
    }
    @Reducer(state: .equatable)
    enum Destination {
        case about(AboutFeature)
        case alert(AlertState<Never>)
    }
    var body: some ReducerOf<Self> {
        BindingReducer()
        Scope(state: \.sync, action: \.sync) { SyncFeature() }
        Reduce { state, action in
            switch action {
            case .binding(\.isNotificationsOn):
                return .none
            case .binding, .sync, .destination:
                return .none
            case let .themeTapped(theme):
                state.theme = theme
                return .none
            case .aboutTapped:
                state.destination = .about(AboutFeature.State())
                return .none
            case .task:
                return .run { send in
                    for await _ in NotificationCenter.default.notifications(named: .init("x")) {
                        await send(.aboutTapped)
                    }
                }
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}

@Reducer
struct Loader {
    enum State: Equatable { case idle, loading, loaded([String]), failed(String) }
    enum Action { case start, response(Result<[String], Error>), retry }
    @Dependency(\.apiClient) var apiClient
    var body: some Reducer<State, Action> {
        Reduce { state, action in
            switch action {
            case .start, .retry:
                if case .loading = state { return .none }
                state = .loading
                return .run { send in
                    await send(.response(Result { try await apiClient.fetch() }))
                }
            case let .response(.success(items)):
                state = .loaded(items)
                return .none
            case let .response(.failure(error)):
                state = .failed(error.localizedDescription)
                return .none
            }
        }
    }
}
