import ComposableArchitecture

// Navigation shapes seen in real TCA code, with made-up names.

@Reducer
struct Gauge {
    @ObservableState
    struct State: Equatable { var level = 0 }
    enum Action {
        case bump
        case delegate(Delegate)
        enum Delegate { case finished, abandoned }
    }
    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .bump:
                state.level += 1
                return .none
            case .delegate:
                return .none
            }
        }
    }
}

// A `@Reducer enum` destination that declares its own `Action`, an alert case ignored by the macro,
// several static alerts, and a nested switch on the alert's action.
@Reducer
struct Garden {
    @Reducer
    enum Destination {
        @ReducerCaseIgnored case alert(AlertState<Alert>)
        case planter(Gauge)
        case viewer(Gauge)

        @CasePathable
        enum Action {
            case alert(Alert)
            case planter(Gauge.Action)
            case viewer(Gauge.Action)
        }

        @CasePathable
        enum Alert { case confirmUproot, waterAnyway, openManual }
    }

    @ObservableState
    struct State: Equatable {
        @Presents var destination: Destination.State?
        var uprooted = false
    }

    enum Action {
        case uprootTapped
        case plantTapped
        case viewTapped
        case drought
        case closePlanter
        case donePlanting
        case destination(PresentationAction<Destination.Action>)
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .uprootTapped:
                state.destination = .alert(.uprootConfirmation)
                return .none
            case .plantTapped:
                state.destination = .planter(Gauge.State(level: 3))
                return .none
            case .viewTapped:
                state.destination = .viewer(Gauge.State())
                return .none
            case .drought:
                state.destination = .alert(.dryWarning)
                return .none
            case .closePlanter:
                state.destination = nil
                return .none
            case .donePlanting:
                guard case .some(.planter) = state.destination else { return .none }
                state.destination = .viewer(Gauge.State())
                return .none
            case .destination(.presented(.alert(let alertAction))):
                switch alertAction {
                case .confirmUproot:
                    state.uprooted = true
                    return .none
                case .waterAnyway:
                    return .none
                case .openManual:
                    state.destination = .viewer(Gauge.State())
                    return .none
                }
            case .destination(.presented(.planter(.delegate(.finished)))):
                state.destination = .viewer(Gauge.State())
                return .none
            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}

extension AlertState where Action == Garden.Destination.Alert {
    static let uprootConfirmation = Self {
        TextState("Uproot?")
    } actions: {
        ButtonState(role: .destructive, action: .confirmUproot) { TextState("Uproot") }
        ButtonState(role: .cancel) { TextState("Keep") }
    }

    static let dryWarning = Self {
        TextState("Too dry")
    } actions: {
        ButtonState(action: .waterAnyway) { TextState("Water") }
        ButtonState(action: .send(.openManual)) { TextState("Manual") }
    }
}

// An alert field with inline alerts and a static function with a literal argument, a dialog field,
// an optional child feature, and one case pattern that names two inputs.
@Reducer
struct Kettle {
    @ObservableState
    struct State: Equatable {
        @Presents var alert: AlertState<Action.Alert>?
        @Presents var dialog: ConfirmationDialogState<Action.Dialog>?
        @Presents var gauge: Gauge.State?
        var temperature = 0
    }

    enum Action {
        case alert(PresentationAction<Alert>)
        case dialog(PresentationAction<Dialog>)
        case gauge(PresentationAction<Gauge.Action>)
        case boilTapped
        case optionsTapped
        case overheated
        case gaugeLoaded
        case heatResponse(Result<Int, Error>)
        case report(didSucceed: Bool)

        enum Alert: Equatable { case cool }
        enum Dialog: Equatable { case warmer, colder }
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .alert(.presented(.cool)), .dialog(.presented(.colder)):
                state.temperature -= 10
                return .none
            case .alert, .dialog:
                return .none
            case .boilTapped:
                state.alert = .stopBoiling(early: true)
                return .none
            case .overheated:
                state.alert = AlertState { TextState("Too hot") }
                return .none
            case .optionsTapped:
                state.dialog = ConfirmationDialogState {
                    TextState("Options")
                } actions: {
                    ButtonState(action: .warmer) { TextState("Warmer") }
                    ButtonState(action: .colder) { TextState("Colder") }
                }
                return .none
            case .gaugeLoaded:
                state.gauge = Gauge.State()
                return .none
            case .gauge(.presented(.delegate(.abandoned))):
                state.gauge = nil
                return .none
            case .gauge:
                return .none
            case .heatResponse(.success):
                state.gauge = nil
                return .none
            case .heatResponse(.failure):
                state.alert = AlertState { TextState("Failed") }
                return .none
            case .report(didSucceed: true):
                state.gauge = nil
                return .none
            case .report(didSucceed: false):
                state.alert = .stopBoiling(early: false)
                return .none
            }
        }
        .ifLet(\.$alert, action: \.alert)
        .ifLet(\.$dialog, action: \.dialog)
        .ifLet(\.$gauge, action: \.gauge) { Gauge() }
    }
}

extension AlertState where Action == Kettle.Action.Alert {
    static func stopBoiling(early: Bool) -> Self {
        Self {
            TextState("Stop?")
        } actions: {
            ButtonState(action: .cool) { TextState("Cool down") }
        }
    }
}

// A root `@Reducer enum` that switches its own cases; each case's actions arrive only in that case.
@Reducer
enum Greenhouse {
    case garden(Garden)
    case kettle(Kettle)

    static var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .garden(.destination(.presented(.planter(.delegate(.abandoned))))):
                state = .kettle(Kettle.State())
                return .none
            case .kettle(.alert(.presented(.cool))):
                state = .garden(Garden.State())
                return .none
            case .garden, .kettle:
                return .none
            }
        }
        .ifCaseLet(\.garden, action: \.garden) { Garden() }
        .ifCaseLet(\.kettle, action: \.kettle) { Kettle() }
    }
}

// A plain optional child scoped with `.ifLet(\.shelf, …)` (no `$`: not a presentation, no `.dismiss`),
// setter actions with literal arguments, and a switch on a bound delegate action of a list element.
@Reducer
struct Pantry {
    @ObservableState
    struct State: Equatable {
        var isOpen = false
        var shelf: Gauge.State?
        var gauges: IdentifiedArrayOf<Gauge.State> = []
        var focus: Spot? = .door
        enum Spot: Hashable { case door, jar(Int) }
    }

    enum Action {
        case setOpen(isOpen: Bool)
        case shelfLoaded
        case shelf(Gauge.Action)
        case gauges(IdentifiedActionOf<Gauge>)
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .setOpen(isOpen: true):
                state.isOpen = true
                return .none
            case .setOpen(isOpen: false):
                state.isOpen = false
                state.shelf = nil
                state.focus = nil
                return .none
            case .shelfLoaded:
                state.shelf = Gauge.State()
                state.focus = .jar(2)
                return .none
            case .shelf:
                return .none
            case .gauges(.element(id: _, action: .delegate(let delegateAction))):
                switch delegateAction {
                case .finished:
                    state.isOpen = false
                    return .none
                case .abandoned:
                    return .none
                }
            case .gauges:
                return .none
            }
        }
        .ifLet(\.shelf, action: \.shelf) { Gauge() }
        .forEach(\.gauges, action: \.gauges) { Gauge() }
    }
}

// The view's actions bound under the reducer's own name (`case let .view(action): switch action`).
@Reducer
struct Lantern {
    @ObservableState
    struct State: Equatable { var isLit = false }
    enum Action {
        case view(View)
        enum View { case lightTapped, dimTapped }
    }
    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .view(action):
                switch action {
                case .lightTapped:
                    state.isLit = true
                case .dimTapped:
                    state.isLit = false
                }
                return .none
            }
        }
    }
}

// `if case` on a value bound from the action narrows the trigger like a `switch` does.
@Reducer
struct Sprinkler {
    @ObservableState
    struct State: Equatable { var isWet = false }
    enum Action { case valveResponse(Result<Int, Error>) }
    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .valveResponse(result):
                if case .success = result {
                    state.isWet = true
                }
                return .none
            }
        }
    }
}
