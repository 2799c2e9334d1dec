import MachineModel
import XCTest

/// What an effect in flight can deliver, as its code says. Made-up identifiers.
final class EffectDeliveryTests: XCTestCase {
    /// `.run { send in await send(.api(.weighed)) }`: the effect sends `api(.weighed)`, not any `api`
    /// action; the one started on the way into `bagging` sends `api(.bagged)`, which leaves it (no false
    /// `waiting_forever`).
    func testAnEffectDeliversOnlyTheNestedActionItSends() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Scale {
            @ObservableState
            struct State: Equatable { var phase: Phase = .idle }
            enum Phase: Equatable { case idle, weighing, ready, bagging, bagged }
            enum Action {
                case view(View)
                case api(API)
                enum View { case weigh, bag }
                enum API { case weighed, bagged }
            }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .view(.weigh):
                        guard state.phase == .idle else { return .none }
                        state.phase = .weighing
                        return .run { send in await send(.api(.weighed)) }
                    case .view(.bag):
                        guard state.phase == .ready else { return .none }
                        state.phase = .bagging
                        return .run { send in await send(.api(.bagged)) }
                    case .api(.weighed):
                        guard state.phase == .weighing else { return .none }
                        state.phase = .ready
                        return .none
                    case .api(.bagged):
                        guard state.phase == .bagging else { return .none }
                        state.phase = .bagged
                        return .none
                    }
                }
            }
        }
        """)
        let m = try a.machine("Scale.phase")
        XCTAssertEqual(m.findingSet.filter { $0.hasPrefix("waiting_forever") || $0.hasPrefix("stale_effect_output") }, [])
        XCTAssertTrue(m.findingSet.contains("dead_end_state bagged"), "\(m.findingSet)")
    }

    /// An Actomaton reducer keeping its effect in a local `var effect: Effect<Action> = .empty`, set on some
    /// paths and returned at the end: each path's effect and cancel is what it was given there.
    func testAnEffectKeptInALocalVarIsEachPathsOwn() throws {
        let a = Analysed.source("""
        import Actomaton
        enum DialAction: Sendable { case tune, locked, powerOff }
        enum DialState: Sendable { case off, tuning, playing }
        struct TuneID: EffectIDProtocol {}
        let dialReducer = Reducer<DialAction, DialState, Void> { action, state, _ in
            var effect: Effect<DialAction> = .empty
            switch action {
            case .tune:
                if state != .tuning {
                    state = .tuning
                    effect = Effect(id: TuneID()) {
                        try await Task.sleep(nanoseconds: 500)
                        return .locked
                    }
                }
            case .locked:
                if state == .tuning { state = .playing }
            case .powerOff:
                if state != .off {
                    state = .off
                    effect = .cancel(id: TuneID())
                }
            }
            return effect
        }
        let dial = Actomaton<DialAction, DialState>(state: .off, reducer: dialReducer)
        """)
        let m = try a.machine("dial")
        XCTAssertEqual(m.emits, ["tune>locked"])
        XCTAssertEqual(m.cancels, ["powerOff>TuneID"])
        // (a pair that does nothing starts nothing)
        XCTAssertNil(m.edges.first { $0.from == "off" && $0.input == "locked" }.flatMap { edge in m.rules.first { $0.id == edge.rule }?.effect })
        XCTAssertEqual(m.findingSet.filter { $0.hasPrefix("stale") || $0.hasPrefix("uncancelled") }, [])
    }

    /// An effect a method of the reducer's environment builds (`environment.quoteEffect()`), the environment's
    /// type written on the reducer's type (`var reducer: Reducer<Action, State, Environment> { Reducer { … } }`):
    /// what that method returns, with its id and the inputs it sends.
    func testAnEffectBuiltByAMethodOfTheEnvironment() throws {
        let a = Analysed.source("""
        import Actomaton
        enum TillAction: Sendable { case quote, quoted, back }
        enum TillState: Sendable { case browsing, quoting, quoted }
        struct QuoteID: EffectIDProtocol {}
        struct TillEnvironment: Sendable {
            var fetch: @Sendable () async -> Int
            func quoteEffect() -> Effect<TillAction> {
                Effect(id: QuoteID()) {
                    _ = await fetch()
                    return .quoted
                }
            }
        }
        enum Till {
            static var reducer: Reducer<TillAction, TillState, TillEnvironment> {
                Reducer { action, state, environment in
                    switch (action, state) {
                    case (.quote, .browsing):
                        state = .quoting
                        return environment.quoteEffect()
                    case (.quoted, .quoting):
                        state = .quoted
                        return .empty
                    case (.back, .quoting), (.back, .quoted):
                        state = .browsing
                        return .empty
                    default:
                        return .empty
                    }
                }
            }
        }
        let till = Actomaton<TillAction, TillState>(state: .browsing, reducer: Till.reducer, environment: TillEnvironment(fetch: { 1 }))
        """)
        let m = try a.machine("till")
        XCTAssertEqual(m.emits, ["quote>quoted"])
        XCTAssertEqual(m.rules.compactMap(\.effect).map(\.id), ["QuoteID"])
        // (`back` does not cancel it: a late `quoted` after quote → back → quote)
        XCTAssertTrue(m.findingSet.contains { $0.hasPrefix("stale_effect_output") }, "\(m.findingSet)")
    }

    /// A computed local `var ping: Effect<Action> { … }` returned by the reducer is the effect it builds, not
    /// an effect variable set on some paths.
    func testAComputedLocalEffectIsTheEffectItBuilds() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        struct BellState: Equatable { var ringing = false }
        enum BellAction { case ring, rang, stop }
        struct BellEnvironment {}
        let bellReducer = Reducer<BellState, BellAction, BellEnvironment> { state, action, environment in
            var chime: Effect<BellAction, Never> {
                Effect(value: .rang).delay(for: 1, scheduler: DispatchQueue.main).eraseToEffect()
            }
            switch action {
            case .ring:
                state.ringing = true
                return chime
            case .rang:
                return chime
            case .stop:
                state.ringing = false
                return .none
            }
        }
        """)
        let m = try a.machine("BellState.ringing")
        XCTAssertNotNil(m.rules.first { $0.inputs == ["rang"] }?.effect)
    }

    /// ReactiveAutomaton's `.cancel { $0 == .route }` cancels the effects of that id only: the tracker
    /// keeps running and its late output is stale.
    func testACancelPredicateComparingIDsCancelsThoseOnly() throws {
        let a = Analysed.source("""
        import ReactiveAutomaton
        import ReactiveSwift
        enum CourierInput { case dispatch, track, routed, located, recall }
        enum CourierState { case idle, working, delivered, located }
        enum CourierEffectID { case route, track }
        let routeProducer = SignalProducer<CourierInput, Never>(value: .routed).delay(5, on: QueueScheduler.main)
        let trackProducer = SignalProducer<CourierInput, Never>(value: .located).delay(3, on: QueueScheduler.main)
        let courierMappings: [Automaton<CourierInput, CourierState>.EffectMapping<Never, CourierEffectID>] = [
            .dispatch | .idle    => .working   | Effect(routeProducer, id: .route),
            .track    | .working => .working   | Effect(trackProducer, id: .track),
            .routed   | .working => .delivered | .none,
            .located  | .working => .located   | .none,
            .recall   | .working => .idle      | .cancel { $0 == .route },
        ]
        let courier = Automaton(state: .idle, inputs: Signal<CourierInput, Never>.never, mapping: reduce(courierMappings))
        """)
        let m = try a.machine("courier")
        XCTAssertEqual(m.cancels, ["recall>route"])
        XCTAssertTrue(m.findingSet.contains { $0.hasPrefix("stale_effect_output") }, "\(m.findingSet)")
    }

    /// A Harvest row's effect written in parentheses, `(.cancel(.quote) + Effect(pub, id: .quote))`: it
    /// cancels the old request and starts a new one with that id (no false stale output).
    func testAParenthesisedRowEffectJoinedWithPlus() throws {
        let a = Analysed.source("""
        import Harvest
        import Combine
        enum QuoteInput { case ask, quoteReady, leave }
        enum QuoteState { case idle, quoting, quoted }
        enum QuoteEffectID { case quote }
        let quotePublisher = Just(QuoteInput.quoteReady).delay(for: 1, scheduler: DispatchQueue.main)
        let quoteMappings: [Harvester<QuoteInput, QuoteState>.EffectMapping<BasicEffectQueue, QuoteEffectID>] = [
            .ask        | .idle    => .quoting | (.cancel(.quote) + Effect(quotePublisher, id: .quote)),
            .ask        | .quoted  => .quoting | (.cancel(.quote) + Effect(quotePublisher, id: .quote)),
            .quoteReady | .quoting => .quoted  | .empty,
            .leave      | .quoting => .idle    | .empty,
            .leave      | .quoted  => .idle    | .empty,
        ]
        let quoteHarvester = Harvester(state: .idle, inputs: PassthroughSubject<QuoteInput, Never>(), mapping: .reduce(.first, quoteMappings))
        """)
        let m = try a.machine("quoteHarvester")
        XCTAssertEqual(m.cancels, ["ask>quote"])
        XCTAssertEqual(Set(m.rules.compactMap(\.effect).map(\.id)), ["quote"])
        XCTAssertEqual(m.findingSet.filter { $0.hasPrefix("stale") }, [])
    }

    /// RxAutomaton's `.empty()` sends nothing: a row with it has no effect.
    func testAnEmptyObservableIsNoEffect() throws {
        let a = Analysed.source("""
        import RxAutomaton
        import RxSwift
        enum GateInput { case open, opened, close }
        enum GateState { case shut, opening, open }
        let openedObservable = Observable<GateInput>.just(.opened).delay(.seconds(1), scheduler: MainScheduler.instance)
        let gateMappings: [RxAutomaton<GateInput, GateState>.NextMapping] = [
            .open   | .shut    => .opening | openedObservable,
            .opened | .opening => .open    | .empty(),
            .close  | .open    => .shut    | .empty(),
        ]
        let gate = RxAutomaton(state: .shut, input: PublishSubject<GateInput>().asObservable(), mapping: reduce(gateMappings))
        """)
        let m = try a.machine("gate")
        XCTAssertEqual(m.rules.compactMap(\.effect).map(\.label), ["openedObservable"])
    }
}
