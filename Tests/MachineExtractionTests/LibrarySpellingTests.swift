import MachineModel
import XCTest

/// The catalogue's libraries and plain Swift written as app authors write them, not as the catalogue
/// spells them (made-up identifiers; each shape read wrongly or not at all before).
final class LibrarySpellingTests: XCTestCase {
    /// Harvest's `EffectMapping.makeInout` over a struct's field, through typealiases: what the closure
    /// returns is its effect (`.empty`, `.cancel(id)` are no states), and the struct the machine is built
    /// with gives the field's start.
    func testAnInoutMappingReturnsEffectsAndStartsAtTheFieldsDefault() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Harvest
        enum Heat { case off, warming, hot }
        struct Oven { var heat: Heat = .off; var minutes = 0 }
        enum Dial { case on, ready, off }
        enum OvenID { case warm }
        typealias OvenH = Harvester<Dial, Oven>
        typealias OvenMapping = OvenH.EffectMapping<OvenQueue, OvenID>
        func warmUp(id: OvenID) -> OvenH.Effect<Dial, OvenQueue, OvenID> { .init(Just(Dial.ready), id: id) }
        let ovenMapping: OvenMapping = .makeInout { dial, oven, _ in
            switch (dial, oven.heat) {
            case (.on, .off): oven.heat = .warming; return warmUp(id: .warm)
            case (.ready, .warming): oven.heat = .hot; return .empty
            case (.off, .warming), (.off, .hot): oven.heat = .off; return .cancel(.warm)
            default: return nil
            }
        }
        let oven = OvenH(state: Oven(), inputs: PassthroughSubject<Dial, Never>(), mapping: ovenMapping)
        """)
        let oven = try XCTUnwrap(machines.named("oven"))
        XCTAssertEqual(oven.states, ["off", "warming", "hot"])
        XCTAssertEqual(oven.initial, "off")
        XCTAssertTrue(oven.transitions.isSuperset(of: ["off -on-> warming", "warming -ready-> hot", "hot -off-> off"]), "\(oven.transitions)")
        XCTAssertTrue(oven.cancels.contains("off>warm"), "\(oven.cancels)")
        XCTAssertTrue(oven.findings.isEmpty, "\(oven.findings)")
    }

    /// Rows kept in several tables joined by `+`: one machine, of the join, with every row and the
    /// start its construction gives (not one machine per table, each with false dead ends).
    func testTablesJoinedByPlusAreOneMachine() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Harvest
        enum Tape { case idle, rolling, held }
        enum Deck { case roll, hold, release, eject }
        typealias DeckH = Harvester<Deck, Tape>
        enum DeckRows {
            static let moving: [DeckH.Mapping] = [.roll | .idle => .rolling, .hold | .rolling => .held]
            static let resting: [DeckH.Mapping] = [.release | .held => .rolling, .eject | .rolling => .idle, .eject | .held => .idle]
            static let every = moving + resting
        }
        let deck = DeckH(state: .idle, inputs: PassthroughSubject<Deck, Never>(), mapping: .reduce(.first, DeckRows.every))
        """)
        XCTAssertEqual(machines.map(\.name), ["deck"])
        let deck = try XCTUnwrap(machines.named("deck"))
        XCTAssertEqual(deck.initial, "idle")
        XCTAssertEqual(deck.transitions, ["idle -roll-> rolling", "rolling -hold-> held", "held -release-> rolling",
                                          "rolling -eject-> idle", "held -eject-> idle"])
        XCTAssertTrue(deck.findings.filter { $0.severity != .note }.isEmpty, "\(deck.findings)")
    }

    /// A reducer built through a typealias of the library's type (`typealias FanReducer = Reducer<…>`) is
    /// a reducer: the alias says which, as Swift resolves it.
    func testAReducerBuiltThroughATypealias() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        enum Blade: Equatable { case still, spinning }
        struct FanState: Equatable { var blade: Blade = .still }
        enum FanAction { case flick, halt }
        typealias FanReducer = Reducer<FanState, FanAction, Void>
        let fanReducer = FanReducer { state, action, _ in
            switch action {
            case .flick: state.blade = .spinning; return .none
            case .halt: state.blade = .still; return .none
            }
        }
        """)
        let fan = try XCTUnwrap(machines.named("FanState.blade"))
        XCTAssertEqual(fan.transitions, ["still -flick-> spinning", "spinning -halt-> still"])
    }

    /// `.response(.success)` and `.response(.failure)` together take every `response`: a later `case
    /// .response:` never runs, so no path stays in `loading` waiting for an answer that came.
    func testResultPayloadCasesTogetherTakeTheInput() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        @Reducer
        struct Quote {
            @ObservableState struct State: Equatable { var phase: Phase = .idle }
            enum Phase: Equatable { case idle, loading, shown, failed }
            enum Action { case fetch, answered(Result<Int, any Error>), retry }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .fetch:
                        guard state.phase == .idle else { return .none }
                        state.phase = .loading
                        return .run { send in await send(.answered(.success(1))) }
                    case .answered(.success) where state.phase == .loading:
                        state.phase = .shown
                        return .none
                    case .answered(.failure) where state.phase == .loading:
                        state.phase = .failed
                        return .none
                    case .answered:
                        return .none
                    case .retry:
                        state.phase = .idle
                        return .none
                    }
                }
            }
        }
        """)
        let quote = try XCTUnwrap(machines.named("Quote.phase"))
        XCTAssertFalse(quote.findingKeys.contains { $0.hasPrefix("waiting_forever") }, "\(quote.findings)")
        XCTAssertFalse(quote.edges.contains { $0.from == "loading" && $0.to == "loading" && $0.input == "answered" }, "\(quote.edges)")
    }

    /// A field the view binds (`$store.speed`, with `BindingReducer()`) is set by the user to any value:
    /// no state is unreachable because only bindings lead there.
    func testAFieldTheViewBindsIsSetByBindings() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        import SwiftUI
        @Reducer
        struct Blender {
            enum Speed: Equatable { case low, high, pulse }
            @ObservableState struct State: Equatable { var speed: Speed = .low; var running = false }
            enum Action: BindableAction { case binding(BindingAction<State>), resetTapped, startTapped }
            var body: some ReducerOf<Self> {
                BindingReducer()
                Reduce { state, action in
                    switch action {
                    case .resetTapped: state.speed = .low; return .none
                    case .startTapped: state.running = true; return .none
                    case .binding: return .none
                    }
                }
            }
        }
        struct BlenderView: View {
            @Bindable var store: StoreOf<Blender>
            var body: some View { Picker("Speed", selection: $store.speed) { Text("Low") } }
        }
        """)
        let speed = try XCTUnwrap(machines.named("Blender.speed"))
        XCTAssertTrue(speed.transitions.isSuperset(of: ["low -binding-> high", "low -binding-> pulse", "high -resetTapped-> low"]),
                      "\(speed.transitions)")
        XCTAssertFalse(speed.findingKeys.contains { $0.hasPrefix("unreachable_state") }, "\(speed.findings)")
        // (a field no view binds gets no binding edges)
        let running = try XCTUnwrap(machines.named("Blender.running"))
        XCTAssertFalse(running.transitions.contains { $0.contains("binding") }, "\(running.transitions)")
    }

    /// A Harvest queue's `flattenStrategy` written without a `switch` (`self == .heater ? .latest : .merge`,
    /// or `if self == … { return … }` and a `return`): the effect on that queue cancels the one before.
    func testAQueuePolicyWrittenWithATernaryOrAnIf() throws {
        for getter in ["{ self == .lamp ? .latest : .merge }", "{ if self != .lamp { return .merge }; return .latest }"] {
            let (machines, _) = try Fixture.analyze(source: """
            import Harvest
            enum Bulb { case dark, warming, bright }
            enum Switch { case flip, warm }
            enum BulbQueue: EffectQueueProtocol {
                case plain, lamp
                var flattenStrategy: FlattenStrategy \(getter)
                static var defaultEffectQueue: BulbQueue { .plain }
            }
            typealias BulbH = Harvester<Switch, Bulb>
            let rows: [BulbH.EffectMapping<BulbQueue, Never>] = [
                .flip | .dark => .warming | BulbH.Effect(warmUp, queue: .lamp),
                .warm | .warming => .bright | .empty,
            ]
            let bulb = BulbH(state: .dark, inputs: PassthroughSubject<Switch, Never>(), mapping: .reduce(.first, rows))
            """)
            let bulb = try XCTUnwrap(machines.named("bulb"))
            let started = try XCTUnwrap(bulb.rules.first { $0.inputs == ["flip"] })
            XCTAssertEqual(started.effect?.policy, "latest", getter)
            XCTAssertEqual(started.cancels, ["lamp"], getter)
        }
    }

    /// A `@Reducer struct` whose `State` is an enum starts where the program's store starts it, however the
    /// case is written (`Store(initialState: .booting) { Shell() }`), and a child's actions arrive only in
    /// the case `.ifCaseLet` scopes it to.
    func testAnEnumStateFeatureStartsWhereItsStoreDoes() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        @Reducer struct Intro {
            @ObservableState struct State: Equatable {}
            enum Action { case done }
            var body: some ReducerOf<Self> { Reduce { _, _ in .none } }
        }
        @Reducer
        struct Shell {
            @ObservableState
            enum State: Equatable { case booting, intro(Intro.State), main }
            enum Action { case booted(Bool), intro(Intro.Action), reset }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case let .booted(fresh):
                        guard case .booting = state else { return .none }
                        state = fresh ? .intro(Intro.State()) : .main
                        return .none
                    case .intro(.done): state = .main; return .none
                    case .intro: return .none
                    case .reset: state = .intro(Intro.State()); return .none
                    }
                }
                .ifCaseLet(\\.intro, action: \\.intro) { Intro() }
            }
        }
        let shellStore = Store(initialState: .booting) { Shell() }
        """)
        let shell = try XCTUnwrap(machines.named("Shell"))
        XCTAssertEqual(shell.initial, "booting")
        XCTAssertEqual(Set(shell.edges.filter { $0.input == "intro" && !$0.noop }.map { "\($0.from) -\($0.trigger)-> \($0.to)" }),
                       ["intro -intro(.done)-> main"])
    }
}
