import MachineModel

/// Descriptions of the effect-aware checks (kept apart: their examples are longer).
extension Check {
    var effectCheckDescription: CheckDescription {
        switch self {
        case .staleEffectOutput:
            CheckDescription(
                check: self, name: "Stale effect output",
                summary: "An effect's output changes the state after the machine has left the state the effect was started for.",
                rationale: "A request started in one state and never cancelled delivers its answer whenever it finishes: after a logout, a second login, a screen change. If that late answer still moves the machine, the app acts on stale data (logs the old user in, shows the previous search's results). machine-viz explores the machine together with its effects in flight, and reports the shortest input sequence in which such a late delivery changes the state; steps marked `(effect)` are inputs an effect sends. Conditions on the machine's own state are read exactly, conditions on a payload or the environment can go either way; a witness that needs a condition on another field of the state (a request id, a flag) or an action of a child presented in another field is not reported from the field's own machine, since the tool cannot tell whether it holds, but when the field belongs to a struct state whose fields can be explored together, the race is looked for in that product, where conditions on the other fields are evaluated. A state entered to wait for an effect already running (every way out of it is that effect's output, like `finishing` waiting for a recording's `finished`) takes the effect over: its output there is expected, not stale. An effect started in every state without leaving it (a request a field machine sees started by a branch that neither reads nor writes its field) was not started for a state and is never stale; nor is a stream in the state its own output moved the machine to (a socket's `didOpen`, then its `didClose`). A stream ends with what it sends last: from TCA's `catch:` closure (the operation threw, the run is over), or after its `for await` loop; a branch that takes only such a value ends the stream, so its failure is no late sender of later chunks. The finding is located at the rule that starts the effect.",
                subject: "the input the late effect sends",
                triggeringExamples: [
                    """
                    import Actomaton

                    enum KettleAction: Sendable { case boil, boiled, unplug, cooled }
                    enum Kettle: Sendable { case cold, heating, hot, cooling }

                    let kettleReducer = Reducer<KettleAction, Kettle, Void> { action, state, _ in
                        switch (action, state) {
                        ↓case (.boil, .cold):
                            state = .heating
                            return Effect { .boiled }
                        case (.boiled, .heating):
                            state = .hot
                            return .empty
                        case (.unplug, .heating), (.unplug, .hot):
                            state = .cooling
                            return Effect { .cooled }
                        case (.cooled, .cooling):
                            state = .cold
                            return .empty
                        default:
                            return .empty
                        }
                    }

                    let kettle = Actomaton<KettleAction, Kettle>(state: .cold, reducer: kettleReducer)
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    import Actomaton

                    enum KettleAction: Sendable { case boil, boiled, unplug, cooled }
                    enum Kettle: Sendable { case cold, heating, hot, cooling }
                    struct BoilID: EffectIDProtocol {}

                    let kettleReducer = Reducer<KettleAction, Kettle, Void> { action, state, _ in
                        switch (action, state) {
                        case (.boil, .cold):
                            state = .heating
                            return Effect(id: BoilID()) { .boiled }
                        case (.boiled, .heating):
                            state = .hot
                            return .empty
                        case (.unplug, .heating), (.unplug, .hot):
                            state = .cooling
                            return Effect.cancel(id: BoilID()) + Effect { .cooled }
                        case (.cooled, .cooling):
                            state = .cold
                            return .empty
                        default:
                            return .empty
                        }
                    }

                    let kettle = Actomaton<KettleAction, Kettle>(state: .cold, reducer: kettleReducer)
                    """,
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Dictaphone {
                        @ObservableState
                        struct State: Equatable {
                            var stage: Stage = .ready
                            enum Stage: Equatable { case ready, taping, closing }
                        }
                        enum Action { case tapeTapped, doneTapped, taped }
                        @Dependency(\\.tapeDeck) var tapeDeck

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .tapeTapped:
                                    guard state.stage == .ready else { return .none }
                                    state.stage = .taping
                                    return .run { send in
                                        try await tapeDeck.tape()
                                        await send(.taped)
                                    }
                                case .doneTapped:
                                    guard state.stage == .taping else { return .none }
                                    state.stage = .closing
                                    return .run { _ in await tapeDeck.stop() }
                                case .taped:
                                    state.stage = .ready
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                trace: "boil → unplug → cooled (effect) → boil → boiled (effect)",
                fix: "Cancel the effect when the state it was started for is left: give it an id and cancel that id in the transition that leaves (TCA `.cancellable(id:)` + `.cancel(id:)`, Actomaton `Effect(id:)` + `Effect.cancel(id:)`), or run it on a queue that replaces the request in flight (Harvest `.latest`, Actomaton `Newest1EffectQueueProtocol`, TCA `cancelInFlight: true`) when the same effect is started again. If the late output is harmless by design, check where it arrives that it belongs to the current request (a request id in the state).")
        case .uncancelledEffect:
            CheckDescription(
                check: self, name: "Uncancelled effect",
                summary: "A long-running effect (a timer, a `for await` loop, a long-lived publisher) keeps running in a state where everything it sends does nothing.",
                rationale: "A stream runs until it is cancelled. When the transition out of the state that needs it forgets to cancel it, it keeps waking the app, using the network or the battery, and its outputs are dropped, until the feature goes away; starting it again runs two. machine-viz marks an effect as a stream when it loops over `for await` or `while` and sends inside the loop, or is a timer, a notification or subject publisher, an `AsyncStream` or `Effect(sequence:)`. A stream only ignored for a while (ticks dropped while an alert is up, counted again once it is dismissed, with no new start in between) is paused, not reported. A row of a table or mapping function (Harvest, ReactiveAutomaton) that takes its output is a transition the library reports, even one that stays: the stream is not running for nothing there. The finding is located at the rule that starts the stream; its trace is the shortest input sequence that leaves it running for nothing.",
                subject: "the effect's cancel id, else `line:N` of the rule that starts it",
                triggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Metronome {
                        @ObservableState
                        struct State: Equatable {
                            var isTicking = false
                            var beats = 0
                        }
                        enum Action { case play, pause, beat }
                        @Dependency(\\.continuousClock) var clock
                        private enum CancelID { case beat }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                ↓case .play:
                                    guard !state.isTicking else { return .none }
                                    state.isTicking = true
                                    return .run { send in
                                        for await _ in clock.timer(interval: .milliseconds(500)) { await send(.beat) }
                                    }
                                    .cancellable(id: CancelID.beat)
                                case .pause:
                                    state.isTicking = false
                                    return .none
                                case .beat:
                                    guard state.isTicking else { return .none }
                                    state.beats += 1
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Metronome {
                        @ObservableState
                        struct State: Equatable {
                            var isTicking = false
                            var beats = 0
                        }
                        enum Action { case play, pause, beat }
                        @Dependency(\\.continuousClock) var clock
                        private enum CancelID { case beat }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .play:
                                    guard !state.isTicking else { return .none }
                                    state.isTicking = true
                                    return .run { send in
                                        for await _ in clock.timer(interval: .milliseconds(500)) { await send(.beat) }
                                    }
                                    .cancellable(id: CancelID.beat)
                                case .pause:
                                    state.isTicking = false
                                    return .cancel(id: CancelID.beat)
                                case .beat:
                                    guard state.isTicking else { return .none }
                                    state.beats += 1
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                trace: "play → pause",
                fix: "Cancel the stream where the state that needs it is left (`return .cancel(id: CancelID.beat)`, `Effect.cancel(id:)`), or from `onDisappear` when the view that needs it goes away; start it with `cancelInFlight: true` so that starting it again replaces it.")
        case .waitingForever:
            CheckDescription(
                check: self, name: "Waiting forever",
                summary: "A reachable state that only effects can take the machine out of, with no such effect in flight.",
                rationale: "A loading state is left when the response arrives. If the request can be cancelled (leaving the screen, a cancel button) while the state stays, nothing will ever send the response: the spinner spins forever. An input is *internal* when an effect of the machine sends it (TCA's `.send(action)` is handled at once, so its action is not internal for it; CombineProcessor's `.send` is an effect in flight); `.machine-viz.yml` can say otherwise per machine (`external: [input]`) when the user or another feature can also send it. Only a state the machine enters expecting something is checked: some move into it starts an effect that could take it out, or is taken on the output of a stream that sends a way out. A state whose only ways out are late responses but that nothing enters expecting one (`paid` after a checkout) is final in practice, not a spinner. A branch whose effect closes the feature (TCA's `dismiss()`, the `@Dependency(\\.dismiss)` value) leaves nothing waiting: the exploration stops there. The finding is located at the state and carries the shortest trace to a configuration where the machine waits for nothing.",
                subject: "the state",
                triggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Inbox {
                        @ObservableState
                        struct State: Equatable {
                            var phase: Phase = .idle
                            enum Phase: Equatable { case idle, ↓syncing, synced }
                        }
                        enum Action { case syncTapped, syncFinished, closeTapped }
                        @Dependency(\\.mailClient) var mailClient
                        private enum CancelID { case sync }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .syncTapped:
                                    guard state.phase != .syncing else { return .none }
                                    state.phase = .syncing
                                    return .run { send in
                                        try await mailClient.sync()
                                        await send(.syncFinished)
                                    }
                                    .cancellable(id: CancelID.sync)
                                case .syncFinished:
                                    state.phase = .synced
                                    return .none
                                case .closeTapped:
                                    return .cancel(id: CancelID.sync)
                                }
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Inbox {
                        @ObservableState
                        struct State: Equatable {
                            var phase: Phase = .idle
                            enum Phase: Equatable { case idle, syncing, synced }
                        }
                        enum Action { case syncTapped, syncFinished, closeTapped }
                        @Dependency(\\.mailClient) var mailClient
                        private enum CancelID { case sync }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .syncTapped:
                                    guard state.phase != .syncing else { return .none }
                                    state.phase = .syncing
                                    return .run { send in
                                        try await mailClient.sync()
                                        await send(.syncFinished)
                                    }
                                    .cancellable(id: CancelID.sync)
                                case .syncFinished:
                                    state.phase = .synced
                                    return .none
                                case .closeTapped:
                                    state.phase = .idle
                                    return .cancel(id: CancelID.sync)
                                }
                            }
                        }
                    }
                    """,
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Till {
                        @ObservableState
                        struct State: Equatable {
                            var sale: Sale = .open
                            enum Sale: Equatable { case open, charging, paid }
                        }
                        enum Action { case chargeTapped, charged, chargedBack }
                        @Dependency(\\.cardReader) var cardReader

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .chargeTapped:
                                    guard state.sale == .open else { return .none }
                                    state.sale = .charging
                                    return .run { send in
                                        let approved = try await cardReader.charge()
                                        await send(approved ? .charged : .chargedBack)
                                    }
                                case .charged:
                                    state.sale = .paid
                                    return .none
                                case .chargedBack:
                                    state.sale = .open
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                trace: "syncTapped → closeTapped",
                fix: "Where the effect is cancelled, also leave the state (`state.phase = .idle` next to `.cancel(id:)`; or cancel from `onDisappear` and reset the phase in `onAppear`), or give the state a way out the user can take (a cancel or retry input).")
        case .unknownCancelID:
            CheckDescription(
                check: self, name: "Unknown cancel id",
                summary: "A cancel names an id that no effect of the machine uses.",
                rationale: "Cancelling an id nothing was started with does nothing at run time, silently: usually the id is misspelt, or the effect it should stop lost its `.cancellable(id:)` in a refactoring and now runs on. Ids match as written or by their last component (`timer` matches `CancelID.timer`); an id that is a run-time value (`id`, `state.id`) is not checked, one built from it (`TrackID(n: n)`) is matched by its type. Ids given elsewhere in the module (or the modules it imports) count too: an action sent with an id (Actomaton's `send(_:id:)`), a child feature's `.cancellable(id:)` (TCA cancels across the store). The finding is located at the rule with the cancel.",
                subject: "the id as written",
                triggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Beacon {
                        @ObservableState
                        struct State: Equatable { var isOn = false }
                        enum Action { case start, stop, ping }
                        private enum CancelID { case ping, pong }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .start:
                                    state.isOn = true
                                    return .run { send in await send(.ping) }.cancellable(id: CancelID.ping)
                                ↓case .stop:
                                    state.isOn = false
                                    return .cancel(id: CancelID.pong)
                                case .ping:
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Beacon {
                        @ObservableState
                        struct State: Equatable { var isOn = false }
                        enum Action { case start, stop, ping }
                        private enum CancelID { case ping, pong }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .start:
                                    state.isOn = true
                                    return .run { send in await send(.ping) }.cancellable(id: CancelID.ping)
                                case .stop:
                                    state.isOn = false
                                    return .cancel(id: CancelID.ping)
                                case .ping:
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                fix: "Cancel the id the effect was started with, give the effect that id (`.cancellable(id: CancelID.pong)`), or remove the cancel.")
        default:
            preconditionFailure("\(self) is not an effect-aware check")
        }
    }
}
