import MachineModel
import XCTest

/// Shapes of a project's own transition tables, of the catalogue's libraries spelled as projects spell
/// them, of names Swift hides, and of state the framework changes: rows named with their enum, loops and
/// subclasses registering rows, tables returned by functions, moves a member forbids on purpose, rows
/// folded or joined before the machine is built, TCA's legacy `Effect(value:)`, and overrides, delegates'
/// callbacks and listeners that are the only writers. Made-up identifiers.
final class LibraryAndFrameworkShapeTests: XCTestCase {
    /// Rows registered with their enums' names (`Glow.off`), in a `for` loop over cases, and by a subclass of
    /// the generic machine on implicit `self`: one table each, started where the code says.
    func testRegisteredRowsSpelledWithTypesLoopsAndSubclasses() throws {
        let a = Analysed.source("""
        final class Rig<S: Hashable, E: Hashable> {
            var now: S
            private var rules: [S: [E: S]] = [:]
            init(initial: S) { now = initial }
            func addTransition(from: S, to: S, on e: E) { rules[from, default: [:]][e] = to }
            func register(_ from: S, _ e: E, _ to: S) { rules[from, default: [:]][e] = to }
        }
        enum Glow: Hashable { case off, dim, bright }
        enum Knob: Hashable { case press, hold }
        final class Lantern {
            let rig = Rig<Glow, Knob>(initial: Glow.off)
            init() {
                rig.register(Glow.off, Knob.press, Glow.dim)
                rig.register(Glow.dim, Knob.press, Glow.bright)
                rig.register(Glow.bright, Knob.hold, Glow.off)
            }
        }
        enum Rover: Hashable { case docked, roaming, homing, wedged }
        enum Bump: Hashable { case low, full, hit, freed, home }
        final class Probe {
            let brain = Rig<Rover, Bump>(initial: .docked)
            init() {
                brain.addTransition(from: .docked, to: .roaming, on: .full)
                brain.addTransition(from: .roaming, to: .homing, on: .low)
                brain.addTransition(from: .homing, to: .docked, on: .home)
                for moving in [Rover.roaming, .homing] {
                    brain.addTransition(from: moving, to: .wedged, on: .hit)
                }
                brain.addTransition(from: .wedged, to: .roaming, on: .freed)
            }
        }
        enum Fetch: Hashable { case queued, running, done }
        enum FetchEvent: Hashable { case go, finish, retry }
        final class FetchRig: Rig<Fetch, FetchEvent> {
            init() {
                super.init(initial: .queued)
                addTransition(from: .queued, to: .running, on: .go)
                addTransition(from: .running, to: .done, on: .finish)
                addTransition(from: .done, to: .queued, on: .retry)
            }
        }
        """)
        let lantern = try a.machine("rig")
        XCTAssertEqual(lantern.initial, "off")
        XCTAssertEqual(lantern.moves, ["off -press-> dim", "dim -press-> bright", "bright -hold-> off"])
        let probe = try a.machine("brain")
        XCTAssertTrue(probe.moves.isSuperset(of: ["roaming -hit-> wedged", "homing -hit-> wedged"]), "\(probe.moves)")
        XCTAssertFalse(probe.findings.contains { $0.check == "unreachable_state" }, "\(probe.findingSet)")
        XCTAssertFalse(a.diagnostics.contains { $0.message.contains("not a (from, event, to) row") }, "\(a.diagnosticLines)")
        let fetch = try a.machine("FetchRig")
        XCTAssertEqual(fetch.initial, "queued", "`super.init(initial: .queued)`")
        XCTAssertEqual(fetch.moves, ["queued -go-> running", "running -finish-> done", "done -retry-> queued"])
    }

    /// Rows with several sources in a struct (`Route(from: [.a, .b], …)`, looked up with `contains`), and
    /// tables kept in a computed `static var`, returned by a `static func` or by a free function: each
    /// starts where the state its lookup reads does.
    func testTablesReturnedByFunctionsAndRowsWithSeveralSources() throws {
        let a = Analysed.source("""
        enum Cart: Hashable { case browsing, filled, paying }
        enum CartEvent: Hashable { case add, pay, drop }
        struct Route { let from: [Cart]; let on: CartEvent; let to: Cart }
        final class Till {
            var cart: Cart = .browsing
            let routes: [Route] = [
                Route(from: [.browsing, .filled], on: .add, to: .filled),
                Route(from: [.filled], on: .pay, to: .paying),
                Route(from: [.filled, .paying], on: .drop, to: .browsing),
            ]
            func send(_ e: CartEvent) {
                if let r = routes.first(where: { $0.from.contains(cart) && $0.on == e }) { cart = r.to }
            }
        }
        enum Vault: Hashable { case shut, ajar, alarm }
        enum Dial: Hashable { case code, close, wrong, reset }
        final class Safe {
            var vault = Vault.shut
            static var table: [Vault: [Dial: Vault]] {
                [.shut: [.code: .ajar, .wrong: .alarm], .ajar: [.close: .shut], .alarm: [.reset: .shut]]
            }
            func enter(_ d: Dial) { vault = Safe.table[vault]?[d] ?? vault }
        }
        enum Kiln: Hashable { case cold, firing, holding }
        enum KilnEvent: Hashable { case light, reached, douse }
        struct KilnKey: Hashable { let state: Kiln; let event: KilnEvent }
        final class Pottery {
            private var kiln: Kiln = .cold
            static let steps: [KilnKey: Kiln] = makeSteps()
            static func makeSteps() -> [KilnKey: Kiln] {
                return [KilnKey(state: .cold, event: .light): .firing, KilnKey(state: .firing, event: .reached): .holding,
                        KilnKey(state: .holding, event: .douse): .cold]
            }
            func send(_ e: KilnEvent) { kiln = Pottery.steps[KilnKey(state: kiln, event: e)] ?? kiln }
        }
        enum Mood: Hashable { case asleep, awake, playing }
        enum Need: Hashable { case alarm, bored, tired }
        struct Arrow { var source: Mood; var trigger: Need; var target: Mood }
        func moodArrows() -> [Arrow] {
            [Arrow(source: .asleep, trigger: .alarm, target: .awake), Arrow(source: .awake, trigger: .bored, target: .playing),
             Arrow(source: .playing, trigger: .tired, target: .asleep)]
        }
        final class Puppy {
            var mood: Mood = .asleep
            private let arrows = moodArrows()
            func feel(_ n: Need) {
                if let e = arrows.first(where: { $0.source == mood && $0.trigger == n }) { mood = e.target }
            }
        }
        """)
        let till = try a.machine("routes")
        XCTAssertEqual(till.initial, "browsing")
        XCTAssertEqual(till.moves, ["browsing -add-> filled", "filled -pay-> paying", "filled -drop-> browsing", "paying -drop-> browsing"])
        XCTAssertEqual(try a.machine("table").initial, "shut", "a computed `static var` table")
        XCTAssertEqual(try a.machine("steps").initial, "cold", "`static let steps = makeSteps()`")
        XCTAssertFalse(a.diagnostics.contains { $0.message.contains("no written type says which part of the key") }, "\(a.diagnosticLines)")
        XCTAssertEqual(try a.machine("arrows").initial, "asleep", "`private let arrows = moodArrows()`")
    }

    /// A member naming the moves that gives a case none on purpose (`.archived: []`, `case .returned: return
    /// []`, `case .ended: return false`) makes it an end by design: no dead end, in any machine of the enum.
    func testMovesForbiddenOnPurposeAreEnds() throws {
        let a = Analysed.source("""
        enum Memo: Hashable { case draft, review, archived }
        final class Desk {
            var memo: Memo = .draft
            private let allowed: [Memo: Set<Memo>] = [.draft: [.review], .review: [.draft, .archived], .archived: []]
            func move(to next: Memo) {
                guard allowed[memo]?.contains(next) == true else { return }
                memo = next
            }
        }
        enum Parcel {
            case packed, shipped, returned
            var nextSteps: [Parcel] {
                switch self {
                case .packed: return [.shipped]
                case .shipped: return [.returned]
                case .returned: return []
                }
            }
        }
        final class Depot { var parcel: Parcel = .packed }
        enum Ring {
            case dialing, talking, ended
            func canTransition(to next: Ring) -> Bool {
                switch self {
                case .dialing: return next == .talking || next == .ended
                case .talking: return next == .ended
                case .ended: return false
                }
            }
        }
        final class Phone {
            private(set) var ring: Ring = .dialing
            func answer() { if ring.canTransition(to: .talking) { ring = .talking } }
            func hangUp() { if ring.canTransition(to: .ended) { ring = .ended } }
        }
        """)
        XCTAssertEqual(try a.machine("allowed").terminal, ["archived"])
        XCTAssertEqual(try a.machine("Parcel.nextSteps").terminal, ["returned"])
        XCTAssertEqual(try a.machine("Ring.canTransition").terminal, ["ended"])
        let phone = try a.machine("Phone.ring")
        XCTAssertEqual(phone.terminal, ["ended"], "the enum says `ended` allows no move")
        XCTAssertFalse(a.machines.flatMap(\.findings).contains { $0.check == "dead_end_state" }, "\(a.machines.flatMap(\.findings).map(\.message))")
    }

    /// A local or a case's binding named like the state (`if let state = saved, state == .signedIn`, `let
    /// state = peer.state`) is that value: its tests do not narrow the property. A holder's `static`
    /// predicate is read like an instance one, and a method in a `private extension` is a helper.
    func testNamesSwiftHidesAndPrivateExtensions() throws {
        let a = Analysed.source("""
        final class Login {
            enum State { case out, entering, inside }
            private(set) var state: State = .out
            var saved: State?
            func begin() { guard state == .out else { return }; state = .entering }
            func finish() { guard state == .entering else { return }; state = .inside }
            func resume() {
                if let state = saved, state == .inside { self.state = .inside }
            }
        }
        enum Gauge { case ready, busy }
        final class Twin { var gauge: Gauge = .busy }
        final class Copy {
            enum State { case waiting, synced, stale }
            private(set) var state: State = .waiting
            func sync(with twin: Twin) {
                let state = twin.gauge
                if state == .ready { self.state = .synced } else { self.state = .stale }
            }
            func invalidate() { guard self.state == .synced else { return }; self.state = .stale }
        }
        enum Pipe: Hashable { case idle, fetching, done, failed }
        final class Line {
            private(set) var stage: Pipe = .idle
            static func canMove(from: Pipe, to: Pipe) -> Bool {
                switch (from, to) {
                case let (a, b) where a == b: return false
                case (_, .failed): return true
                case (.idle, .fetching), (.fetching, .done), (.done, .idle), (.failed, .idle): return true
                default: return false
                }
            }
            func set(_ next: Pipe) {
                guard Self.canMove(from: stage, to: next) else { return }
                stage = next
            }
            func start() { set(.fetching) }
        }
        enum Speed { case off, low, high }
        final class Blower {
            private(set) var speed: Speed = .off
            func press() { bump() }
            func stop() { speed = .off }
        }
        private extension Blower {
            func bump() { speed = speed == .off ? .low : speed == .low ? .high : .off }
        }
        """)
        let login = try a.machine("Login.state")
        XCTAssertTrue(login.moves.isSuperset(of: ["out -resume()-> inside", "entering -resume()-> inside"]), "\(login.moves)")
        let copy = try a.machine("Copy.state")
        XCTAssertTrue(copy.moves.isSuperset(of: ["waiting -sync()-> synced", "stale -sync()-> synced", "synced -sync()-> stale"]), "\(copy.moves)")
        XCTAssertFalse(copy.findings.contains { $0.check == "dead_end_state" }, "\(copy.findingSet)")
        let line = try a.machine("Line.stage")
        XCTAssertFalse(line.moves.contains("idle -set()-> done"), "`Self.canMove(from:to:)` forbids it: \(line.moves)")
        XCTAssertTrue(line.moves.contains("idle -set()-> fetching"), "\(line.moves)")
        XCTAssertEqual(try a.machine("Blower.speed").inputs, ["press()", "stop()"], "`bump()` is file-private: a helper")
    }

    /// Legacy TCA's `Effect(value:)` is handled at once, like `.send`: no late output; a `.run` handing its
    /// `send` to a function that loops over a stream is that stream.
    func testTCAValueEffectsAndStreamsInHelpers() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        struct LidState: Equatable {
            var lid: Lid = .shut
            enum Lid: Equatable { case shut, lifting, up }
        }
        enum LidAction: Equatable { case liftTapped, lifted, dropTapped }
        let lidReducer = Reducer<LidState, LidAction, Void> { state, action, _ in
            switch action {
            case .liftTapped:
                guard state.lid == .shut else { return .none }
                state.lid = .lifting
                return Effect(value: .lifted)
            case .lifted:
                state.lid = .up
                return .none
            case .dropTapped:
                state.lid = .shut
                return .none
            }
        }
        @Reducer
        struct Compass {
            @ObservableState
            struct State: Equatable { var isTracking = false; var fixes = 0 }
            enum Action { case startTapped, stopTapped, headingUpdated(Double) }
            @Dependency(\\.headingClient) var headingClient
            enum CancelID { case heading }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .startTapped:
                        guard !state.isTracking else { return .none }
                        state.isTracking = true
                        return .run { send in await follow(send: send) }.cancellable(id: CancelID.heading)
                    case .stopTapped:
                        state.isTracking = false
                        return .none
                    case .headingUpdated:
                        guard state.isTracking else { return .none }
                        state.fixes += 1
                        return .none
                    }
                }
            }
            private func follow(send: Send<Action>) async {
                for await degrees in headingClient.updates() { await send(.headingUpdated(degrees)) }
            }
        }
        """)
        let b = Analysed.source("""
        import ComposableArchitecture
        struct TiltState: Equatable {
            var tilt: Tilt = .idle
            enum Tilt: Equatable { case idle, reading }
        }
        enum TiltAction: Equatable { case startTapped, stopTapped, sample(Double) }
        struct TiltEnvironment { var sensor: Sensor }
        let tiltReducer = Reducer<TiltState, TiltAction, TiltEnvironment> { state, action, env in
            struct TiltID: Hashable {}
            switch action {
            case .startTapped:
                guard state.tilt == .idle else { return .none }
                state.tilt = .reading
                return Effect.run { subscriber in
                    env.sensor.start { value in subscriber.send(.sample(value)) }
                    return AnyCancellable { env.sensor.stop() }
                }
                .cancellable(id: TiltID())
            case .stopTapped:
                guard state.tilt == .reading else { return .none }
                state.tilt = .idle
                return .none
            case .sample:
                guard state.tilt == .reading else { return .none }
                return .none
            }
        }
        """)
        let tilt = try b.machine("TiltState.tilt")
        XCTAssertTrue(tilt.findings.contains { $0.check == "uncancelled_effect" }, "the sensor's callback keeps sending: \(tilt.findingSet)")

        let lid = try a.machine("LidState.lid")
        XCTAssertFalse(lid.findings.contains { $0.check == "stale_effect_output" }, "\(lid.findingSet)")
        XCTAssertEqual(lid.internalInputs, [], "`lifted` is sent at once, as from outside")
        let compass = try a.machine("Compass.isTracking")
        XCTAssertEqual(compass.internalInputs, ["headingUpdated"])
        XCTAssertTrue(compass.findings.contains { $0.check == "uncancelled_effect" }, "the stream `stopTapped` forgets: \(compass.findingSet)")
    }

    /// Operator tables as projects write them: folded into a variable first (`let mapping = reduce(rows)`),
    /// joined from functions (`flowRows() + spillRows()`), grown with `+=` and `append`, a catch-all `.any`,
    /// and a joined table named `all` under `.reduce(.first, …)`.
    func testOperatorTablesFoldedJoinedAndGrown() throws {
        let a = Analysed.source("""
        import ReactiveAutomaton
        enum Task1 { case idle, running, finished }
        enum Task1Input { case run, complete, rewind }
        let taskRows: [Automaton<Task1, Task1Input>.Mapping] = [
            .run | .idle => .running,
            .complete | .running => .finished,
            .rewind | .any => .idle,
        ]
        let (taskSignal, taskObserver) = Signal<Task1Input, Never>.pipe()
        let taskMapping = reduce(taskRows)
        let taskAutomaton = Automaton(state: .idle, input: taskSignal, mapping: taskMapping)
        """)
        let task = try a.machine("taskAutomaton")
        XCTAssertEqual(task.initial, "idle")
        XCTAssertEqual(task.states, ["idle", "running", "finished"], "`.any` is every state, not a state")
        XCTAssertTrue(task.moves.isSuperset(of: ["running -rewind-> idle", "finished -rewind-> idle"]), "\(task.moves)")

        let b = Analysed.source("""
        import Harvest
        enum Tap { case dry, flowing, flooded }
        enum TapInput { case open, close, flood, mop }
        func flowRows() -> [Harvester<TapInput, Tap>.Mapping] { [.open | .dry => .flowing, .close | .flowing => .dry] }
        func spillRows() -> [Harvester<TapInput, Tap>.Mapping] { return [.flood | .flowing => .flooded, .mop | .flooded => .dry] }
        let tapInputs = PassthroughSubject<TapInput, Never>()
        let tap = Harvester(state: Tap.dry, inputs: tapInputs, mapping: .reduce(.first, flowRows() + spillRows()))
        enum Bulb { case off, on, dimmed }
        enum BulbInput { case toggle, dim }
        final class BulbController {
            let taps = PassthroughSubject<BulbInput, Never>()
            var bulb: Harvester<BulbInput, Bulb>?
            func setUp() {
                var rows: [Harvester<BulbInput, Bulb>.Mapping] = [.toggle | .off => .on, .toggle | .on => .off]
                rows += [.dim | .on => .dimmed]
                rows.append(.toggle | .dimmed => .off)
                bulb = Harvester(state: .off, inputs: taps, mapping: .reduce(.first, rows))
            }
        }
        enum Gate { case closed, open, locked }
        enum GateInput { case turn, lock }
        enum GateRules {
            static let opening: [Harvester<GateInput, Gate>.Mapping] = [.turn | .closed => .open, .turn | .open => .closed]
            static let safety: [Harvester<GateInput, Gate>.Mapping] = [.lock | .any => .locked, .turn | .any => .locked]
            static let all = opening + safety
        }
        let gateInputs = PassthroughSubject<GateInput, Never>()
        let gate = Harvester(state: Gate.closed, inputs: gateInputs, mapping: .reduce(.first, GateRules.all))
        """)
        XCTAssertEqual(b.machines.filter { $0.dialect == .operatorTable }.map(\.name).sorted(), ["bulb", "gate", "tap"])
        XCTAssertEqual(try b.machine("tap").moves, ["dry -open-> flowing", "flowing -close-> dry", "flowing -flood-> flooded", "flooded -mop-> dry"])
        XCTAssertEqual(try b.machine("bulb").moves, ["off -toggle-> on", "on -toggle-> off", "on -dim-> dimmed", "dimmed -toggle-> off"])
        let gate = try b.machine("gate")
        XCTAssertEqual(gate.order, .firstMatch, "`GateRules.all` is a table, not `.all`")
        XCTAssertFalse(gate.moves.contains("closed -turn-> locked"), "the first rule wins: \(gate.moves)")
    }

    /// A Harvest effect a helper builds from a publisher it keeps in a local first is that publisher: a
    /// timer left running after `stop` is found.
    func testHarvestEffectBuiltFromALocal() throws {
        let a = Analysed.source("""
        import Combine
        import Harvest
        enum Beat { case still, beating }
        enum BeatInput { case start, pulse, stop }
        enum BeatQueue: EffectQueueProtocol {
            case `default`, pulse
            var flattenStrategy: FlattenStrategy { switch self { case .default: return .merge; case .pulse: return .latest } }
            static var defaultEffectQueue: BeatQueue { .default }
        }
        typealias BeatHarvester = Harvester<BeatInput, Beat>
        typealias BeatEffect = BeatHarvester.Effect<BeatInput, BeatQueue, Never>
        func pulseEffect() -> BeatEffect {
            let pulses = Timer.publish(every: 1, on: .main, in: .common).autoconnect().map { _ in BeatInput.pulse }
            return BeatEffect(pulses, queue: .pulse)
        }
        let beatRows: [BeatHarvester.EffectMapping<BeatQueue, Never>] = [
            .start | .still => .beating | pulseEffect(),
            .pulse | .beating => .beating | .empty,
            .stop | .beating => .still | .empty,
        ]
        let beatInputs = PassthroughSubject<BeatInput, Never>()
        let heart = BeatHarvester(state: .still, inputs: beatInputs, mapping: .reduce(.first, beatRows), scheduler: DispatchQueue.main)
        """)
        let heart = try a.machine("heart")
        XCTAssertTrue(heart.findings.contains { $0.check == "uncancelled_effect" }, "\(heart.findingSet)")
    }

    /// An Actomaton queue given as a case of its queue enum takes that case's policy; a Tinder builder whose
    /// `state` blocks come from functions it calls is read whole.
    func testActomatonQueueCasesAndSplitTinderBuilders() throws {
        let a = Analysed.source("""
        import Actomaton
        enum LookAction: Sendable { case type(String), found([String]), clear }
        enum LookPhase: Sendable { case idle, looking, shown }
        enum LookQueue: EffectQueueProtocol {
            case look
            var effectQueuePolicy: EffectQueuePolicy {
                switch self { case .look: return .runNewest(maxCount: 1) }
            }
        }
        let lookReducer = Reducer<LookAction, LookPhase, Void> { action, state, _ in
            switch action {
            case let .type(query):
                state = .looking
                return Effect(queue: LookQueue.look) { return .found([query]) }
            case .found:
                guard state == .looking else { return .empty }
                state = .shown
                return .empty
            case .clear:
                state = .idle
                return .empty
            }
        }
        let looker = Actomaton<LookAction, LookPhase>(state: .idle, reducer: lookReducer)
        """)
        let looker = try a.machine("looker")
        XCTAssertFalse(looker.findings.contains { $0.check == "stale_effect_output" }, "a newer search replaces the one in flight: \(looker.findingSet)")

        let c = Analysed.source("""
        import Actomaton
        enum Fetcher {
            enum Action: Sendable { case start, complete, cancel }
            enum State: Sendable { case idle, fetching, done }
            static let reducer = Reducer<Action, State, Void> { action, state, _ in
                switch state {
                case .idle, .done:
                    guard case .start = action else { return .empty }
                    state = .fetching
                    return .empty
                case .fetching:
                    return settle(action: action, state: &state)
                }
            }
            static let streamed = Reducer<Action, State, Void> { action, state, _ in
                switch (action, state) {
                case (.start, .idle), (.start, .done):
                    state = .fetching
                    return Effect(sequence: { AsyncStream { c in c.yield(.complete); c.finish() } })
                case (.complete, .fetching):
                    state = .done
                    return .empty
                default:
                    return .empty
                }
            }
            private static func settle(action: Action, state: inout State) -> Effect<Action> {
                switch action {
                case .complete: state = .done
                case .cancel: state = .idle
                case .start: break
                }
                return .empty
            }
        }
        let fetcher = Actomaton<Fetcher.Action, Fetcher.State>(state: .idle, reducer: Fetcher.reducer)
        let streamer = Actomaton<Fetcher.Action, Fetcher.State>(state: .idle, reducer: Fetcher.streamed)
        """)
        XCTAssertEqual(c.machines.map(\.name), ["fetcher", "streamer"], "`settle` is part of the reducer handing it the state")
        let streamer = try c.machine("streamer")
        XCTAssertFalse(streamer.findings.contains { $0.check == "uncancelled_effect" }, "the stream ends with `complete`: \(streamer.findingSet)")
        XCTAssertTrue(try c.machine("fetcher").moves.contains("fetching -complete-> done"))

        let b = Analysed.source("""
        import StateMachine
        @StateMachineHashable enum Kiosk { case idle, paid, serving }
        @StateMachineHashable enum KioskEvent { case coin, pick, done }
        enum KioskEffect { case take, serve }
        final class KioskModel: StateMachineBuilder {
            typealias Machine = StateMachine<Kiosk, KioskEvent, KioskEffect>
            lazy var machine = Machine {
                initialState(.idle)
                idleState()
                paidState()
            }
            private func idleState() -> Machine.Definition.States {
                state(.idle) { on(.coin) { transition(to: .paid, emit: .take) } }
            }
            private func paidState() -> Machine.Definition.States {
                state(.paid) { on(.pick) { transition(to: .serving, emit: .serve) } }
            }
        }
        """)
        let kiosk = try b.machine("machine")
        XCTAssertEqual(kiosk.initial, "idle")
        XCTAssertEqual(kiosk.moves, ["idle -coin-> paid", "paid -pick-> serving"])
    }

    /// A property wrapper the code declares, written through its storage with a method running a closure
    /// on the wrapped value `inout` (`_phase.mutate { p in … }`): that closure writes the state.
    func testWritesThroughAPropertyWrappersStorage() throws {
        let a = Analysed.source("""
        import Foundation
        @propertyWrapper
        final class Guarded<Value> {
            private var value: Value
            private let lock = NSLock()
            init(wrappedValue: Value) { value = wrappedValue }
            var wrappedValue: Value {
                get { lock.lock(); defer { lock.unlock() }; return value }
                set { lock.lock(); value = newValue; lock.unlock() }
            }
            func mutate(_ body: (inout Value) -> Void) { lock.lock(); body(&value); lock.unlock() }
        }
        final class Pump {
            enum Phase { case idle, running, stopped }
            @Guarded private var phase: Phase = .idle
            func start() { _phase.mutate { p in if p == .idle { p = .running } } }
            func stop() { guard phase == .running else { return }; phase = .stopped }
            func reset() { guard phase == .stopped else { return }; phase = .idle }
        }
        """)
        let pump = try a.machine("Pump.phase")
        XCTAssertEqual(pump.moves, ["idle -start()-> running", "running -stop()-> stopped", "stopped -reset()-> idle"])
        XCTAssertEqual(pump.findings, [])
    }

    /// A CombineProcessor setter action sent with a choice (`.setStage(code == 200 ? .done : .refused)`)
    /// leads to each of its cases.
    func testProcessorSetterSentWithAChoice() throws {
        let a = Analysed.source("""
        import Combine
        import CombineProcessor
        struct Courier {
            enum Stage: Equatable { case ready, posting, done, refused }
            struct States: Equatable { var stage: Stage = .ready }
            enum Action { case post, stop }
            enum PrivateAction { case begin, answered(Int), setStage(Stage), halt }
            var reducer: AnyProcessorReducer<States, Action, PrivateAction, Void> {
                AnyProcessorReducer(
                    mutated: { action in
                        switch action {
                        case .post: return .begin
                        case .stop: return .halt
                        }
                    },
                    reduce: { states, privateAction, _ in
                        switch privateAction {
                        case .begin: return .send(.setStage(.posting))
                        case let .answered(code): return .send(.setStage(code == 200 ? .done : .refused))
                        case .setStage(let stage):
                            states.stage = stage
                            return nil
                        case .halt:
                            states.stage = .ready
                            return nil
                        }
                    }
                )
            }
        }
        """)
        let stage = try a.machine("Courier.stage")
        XCTAssertTrue(stage.moves.contains("posting -setStage-> done"), "\(stage.moves)")
        XCTAssertFalse(stage.findings.contains { $0.check == "unreachable_state" }, "\(stage.findingSet)")
    }

    /// Handlers kept in another value (`socket.onMessage = { … }`) are called on each of its events: they
    /// arrive in every state, not only where they were set; delegate methods overloaded by their
    /// parameters' types alone (CallKit's `provider(_:perform:)`) are inputs of their own.
    func testStoredHandlersAndOverloadedCallbacks() throws {
        let a = Analysed.source("""
        import Foundation
        final class Wire {
            var onOpen: (() -> Void)?
            var onData: ((Data) -> Void)?
            var onClose: ((Int) -> Void)?
            func dial() {}
        }
        enum FeedState { case idle, dialing, open, flowing, shut }
        final class Feed {
            private(set) var state: FeedState = .idle
            private let wire = Wire()
            func start() {
                guard state == .idle || state == .shut else { return }
                state = .dialing
                wire.onOpen = { [weak self] in self?.state = .open }
                wire.onData = { [weak self] _ in self?.state = .flowing }
                wire.onClose = { [weak self] _ in self?.state = .shut }
                wire.dial()
            }
        }
        final class AnswerAction {}
        final class EndAction {}
        final class Desk {}
        enum Line { case quiet, ringing, talking }
        final class Switchboard: NSObject {
            private(set) var line: Line = .quiet
            func ring() { if line == .quiet { line = .ringing } }
            func desk(_ desk: Desk, perform action: AnswerAction) { if line == .ringing { line = .talking } }
            func desk(_ desk: Desk, perform action: EndAction) { line = .quiet }
        }
        """)
        let feed = try a.machine("Feed.state")
        XCTAssertTrue(feed.moves.isSuperset(of: ["open -start() onData-> flowing", "flowing -start() onClose-> shut", "open -start() onClose-> shut"]), "\(feed.moves)")
        XCTAssertFalse(feed.findings.contains { $0.check == "dead_end_state" }, "\(feed.findingSet)")
        let line = try a.machine("Switchboard.line")
        XCTAssertTrue(line.moves.isSuperset(of: ["ringing -desk(_: Desk, perform: AnswerAction)-> talking", "talking -desk(_: Desk, perform: EndAction)-> quiet"]), "\(line.moves)")
        XCTAssertFalse(line.moves.contains("ringing -desk(_: Desk, perform: EndAction)-> talking"), "\(line.moves)")
    }

    /// A write from another type through a local cast to the type, giving a choice of cases, leads to each.
    func testOutsideWritesThroughCastsAndChoices() throws {
        let a = Analysed.source("""
        final class TrackCell: UITableViewCell {
            enum State { case remote, fetching, stored }
            var state: State = .remote
            @IBAction func fetchTapped(_ sender: UIButton) { guard state == .remote else { return }; state = .fetching }
            func finishFetch() { guard state == .fetching else { return }; state = .stored }
        }
        final class TracksScreen: UITableViewController {
            var stored: Set<Int> = []
            override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = tableView.dequeueReusableCell(withIdentifier: "track", for: indexPath) as! TrackCell
                cell.state = stored.contains(indexPath.row) ? .stored : .remote
                return cell
            }
        }
        """)
        let cell = try a.machine("TrackCell.state")
        XCTAssertTrue(cell.moves.contains("stored -TracksScreen.tableView(_:cellForRowAt:)-> remote"), "\(cell.moves)")
        XCTAssertFalse(cell.findings.contains { $0.check == "dead_end_state" }, "\(cell.findingSet)")
    }

    /// A state the world changes, with no other writer: a listener the initializer installs, the one override
    /// the framework calls (`setEditing(_:animated:)`), lifecycle overrides, an override running the
    /// superclass's method it overrides; and a method of the code's own named like the platform's
    /// (`sync`) runs its closure when its declaration says.
    func testStateTheFrameworkChanges() throws {
        let a = Analysed.source("""
        import Network
        enum Link { case unknown, up, down }
        final class LinkWatch {
            private(set) var status: Link = .unknown
            private let monitor = NWPathMonitor()
            init() {
                monitor.pathUpdateHandler = { [weak self] path in
                    self?.status = path.status == .satisfied ? .up : .down
                }
                monitor.start(queue: .main)
            }
        }
        final class ListScreen: UITableViewController {
            enum Mode { case plain, sorting }
            private var mode: Mode = .plain
            override func setEditing(_ editing: Bool, animated: Bool) {
                super.setEditing(editing, animated: animated)
                mode = editing ? .sorting : .plain
            }
        }
        final class TileScreen: UIViewController {
            private enum ShowState { case hidden, shown }
            private var showState = ShowState.hidden
            override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); showState = .shown }
            override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); showState = .hidden }
        }
        enum Deck { case idle, spinning, paused, live }
        class BaseDeck {
            var deck: Deck = .idle
            func spin() { guard deck == .idle || deck == .paused else { return }; deck = .spinning }
            func pause() { guard deck == .spinning || deck == .live else { return }; deck = .paused }
        }
        final class BannerScreen: UIViewController, UIScrollViewDelegate {
            private enum BannerState { case open, folded }
            private var bannerState: BannerState = .open
            func scrollViewDidScroll(_ scrollView: UIScrollView) {
                let next: BannerState = scrollView.contentOffset.y > 80 ? .folded : .open
                guard next != bannerState else { return }
                bannerState = next
            }
        }
        final class Wizard: UIViewController {
            enum Step: CaseIterable { case name, card, review }
            private(set) var currentStep: Step = .name
            @IBAction func nextTapped(_ sender: UIButton) {
                guard let index = Step.allCases.firstIndex(of: currentStep), index + 1 < Step.allCases.count else { return }
                currentStep = Step.allCases[index + 1]
            }
            @IBAction func backTapped(_ sender: UIButton) {
                guard let index = Step.allCases.firstIndex(of: currentStep), index > 0 else { return }
                currentStep = Step.allCases[index - 1]
            }
        }
        final class Courier { func sync(_ done: @escaping (Bool) -> Void) {} }
        final class Uploader {
            enum Phase { case idle, sending, sent, failed }
            private(set) var phase: Phase = .idle
            private let courier = Courier()
            func push() {
                phase = .sending
                courier.sync { [weak self] ok in self?.phase = ok ? .sent : .failed }
            }
        }
        final class LiveDeck: BaseDeck {
            override func spin() { super.spin(); print("spun") }
            func goLive() { guard deck == .spinning else { return }; deck = .live }
        }
        """)
        let link = try a.machine("LinkWatch.status")
        XCTAssertEqual(link.initial, "unknown")
        XCTAssertTrue(link.moves.isSuperset(of: ["unknown -init() pathUpdateHandler-> up", "up -init() pathUpdateHandler-> down"]), "\(link.moves)")
        XCTAssertEqual(try a.machine("ListScreen.mode").moves, ["plain -setEditing()-> sorting", "sorting -setEditing()-> plain"])
        XCTAssertEqual(try a.machine("TileScreen.showState").moves, ["hidden -viewDidAppear()-> shown", "shown -viewDidDisappear()-> hidden"])
        let upload = try a.machine("Uploader.phase")
        XCTAssertTrue(upload.moves.isSuperset(of: ["idle -push()-> sending", "sending -push() callback-> sent", "sending -push() callback-> failed"]),
                      "`courier.sync` declares its closure `@escaping`: it runs later, whatever the platform's `sync` does: \(upload.moves)")
        XCTAssertFalse(upload.moves.contains("idle -push()-> sent"), "\(upload.moves)")
        XCTAssertEqual(try a.machine("BannerScreen.bannerState").moves, ["open -scrollViewDidScroll(_:)-> folded", "folded -scrollViewDidScroll(_:)-> open"])
        let wizard = try a.machine("Wizard.currentStep")
        XCTAssertEqual(wizard.moves, ["name -nextTapped()-> card", "card -nextTapped()-> review", "card -backTapped()-> name",
                                      "review -backTapped()-> card"])
        let live = try a.machine("LiveDeck.deck")
        XCTAssertTrue(live.moves.isSuperset(of: ["idle -spin()-> spinning", "paused -spin()-> spinning", "spinning -goLive()-> live"]), "\(live.moves)")
        XCTAssertFalse(live.findings.contains { $0.check == "unreachable_state" }, "\(live.findingSet)")
    }
}
