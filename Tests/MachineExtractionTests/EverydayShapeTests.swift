import MachineModel
import XCTest

/// Shapes of everyday code: steps through `allCases` kept in locals, closures a queue runs at once whatever
/// they capture, defaults of constrained protocol extensions, Swift 5.9's `switch` and `if` expressions,
/// states read from other data or set after an `await`, work started before the method sets the state,
/// events forwarded as choices or with payloads, flags set for good, and helpers that throw. Made-up
/// identifiers.
final class EverydayShapeTests: XCTestCase {
    /// The guard texts drawn on a machine's edges.
    func guards(_ m: Machine) -> [String] {
        m.edges.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText }
    }

    /// An enum's `var next` finding its position in a local `allCases`, guarded by a comparison of
    /// positions, and `!= Stage.allCases.last`: each case to the next, decided per state (no guard text).
    func testAllCasesPositionsComparedPerState() throws {
        let a = Analysed.source("""
        enum Page: CaseIterable {
            case cover, body, appendix, back
            var next: Page? {
                let all = Self.allCases
                guard let i = all.firstIndex(of: self), i + 1 < all.count else { return nil }
                return all[i + 1]
            }
        }
        final class Reader {
            private var page: Page = .cover
            func turn() {
                guard let next = page.next else { return }
                page = next
            }
        }
        enum Leg: CaseIterable { case outbound, layover, inbound }
        final class Trip {
            private var leg: Leg = .outbound
            func advance() {
                if leg != Leg.allCases.last, let i = Leg.allCases.firstIndex(of: leg) { leg = Leg.allCases[i + 1] }
            }
        }
        """)
        let reader = try a.machine("Reader.page")
        XCTAssertEqual(reader.moves, ["cover -turn()-> body", "body -turn()-> appendix", "appendix -turn()-> back"])
        XCTAssertEqual(guards(reader), [])
        let trip = try a.machine("Trip.leg")
        XCTAssertEqual(trip.moves, ["outbound -advance()-> layover", "layover -advance()-> inbound"])
        XCTAssertEqual(guards(trip), [])
    }

    /// `queue.sync { [unowned self] in … }` runs before `sync` returns: its write is the method's own, and
    /// no later `callback` input appears.
    func testClosureRunAtOnceWhateverItCaptures() throws {
        let a = Analysed.source("""
        import Foundation
        final class Fetcher {
            enum Stage { case idle, fetching, stopped }
            private(set) var stage: Stage = .idle
            private let queue = DispatchQueue(label: "fetch")
            func begin() { if stage == .idle { stage = .fetching } }
            func stop() {
                guard stage == .fetching else { return }
                queue.sync { [unowned self] in self.stage = .stopped }
            }
        }
        """)
        let m = try a.machine("Fetcher.stage")
        XCTAssertEqual(Set(m.inputs), ["begin()", "stop()"])
        XCTAssertTrue(m.moves.contains("fetching -stop()-> stopped"), "\(m.moves)")
    }

    /// A default in `extension Holder where State == Awning.State` belongs to `Awning` only, not to another
    /// conformer whose `State` is another declared type.
    func testConstrainedExtensionDefaultsOnlyForConformersMeetingThem() throws {
        let a = Analysed.source("""
        protocol Holder: AnyObject {
            associatedtype State
            var state: State { get set }
        }
        final class Awning: Holder {
            enum State { case furled, spread, moving }
            var state: State = .furled
            func settle() { if state == .moving { state = .spread } }
        }
        extension Holder where State == Awning.State {
            func unfurl() { if state == .furled { state = .moving } }
        }
        final class Hatch: Holder {
            enum State { case shut, open }
            var state: State = .shut
            func lift() { if state == .shut { state = .open } }
            func drop() { if state == .open { state = .shut } }
        }
        """)
        XCTAssertEqual(Set(try a.machine("Awning.state").inputs), ["settle()", "unfurl()"])
        XCTAssertEqual(Set(try a.machine("Hatch.state").inputs), ["lift()", "drop()"])
    }

    /// An enum field of a struct kept in a property named as a state (`state.clock`) is a machine when its
    /// methods switch over it, whatever the field is called.
    func testEnumFieldOfAStructNamedAsAState() throws {
        let a = Analysed.source("""
        final class Metronome {
            struct State { var beat: Beat = .resting; var tempo = 90 }
            enum Beat { case resting, ticking }
            private(set) var state = State()
            func toggle() {
                switch state.beat {
                case .resting: state.beat = .ticking
                case .ticking: state.beat = .resting
                }
            }
            func rest() {
                guard state.beat == .ticking else { return }
                state.beat = .resting
            }
        }
        """)
        let m = try a.machine("Metronome.state.beat")
        XCTAssertEqual(m.initial, "resting")
        XCTAssertEqual(m.moves, ["resting -toggle()-> ticking", "ticking -toggle()-> resting", "ticking -rest()-> resting"])
    }

    /// `return switch`, an `if` expression with `else if` kept in a local, a branch that throws, and a free
    /// mapping function whose body is one `switch` expression: each branch's value is a target.
    func testSwitchAndIfExpressions() throws {
        let a = Analysed.source("""
        enum Knob { case turn, press }
        final class Dial {
            enum Level { case off, low, high }
            private var level: Level = .off
            func send(_ k: Knob) { level = step(level, k) }
            private func step(_ l: Level, _ k: Knob) -> Level {
                return switch (l, k) {
                case (.off, .turn): .low
                case (.low, .turn): .high
                case (_, .press): .off
                default: l
                }
            }
        }
        final class Climate {
            enum Mode { case idle, heat, cool, fan }
            private var mode: Mode = .idle
            func sense(_ t: Int) {
                let next: Mode = if t < 18 { .heat } else if t > 26 { .cool } else { .fan }
                mode = next
            }
            func rest() { if mode != .idle { mode = .idle } }
        }
        struct BadMove: Error {}
        final class Deal {
            enum Phase { case open, funded, closed }
            enum Step { case pay, settle }
            private var phase: Phase = .open
            func apply(_ s: Step) throws {
                phase = switch (phase, s) {
                case (.open, .pay): .funded
                case (.funded, .settle): .closed
                default: throw BadMove()
                }
            }
        }
        enum Pane { case home, list, detail }
        enum Hop { case open, pick, back }
        func hop(_ pane: Pane, _ h: Hop) -> Pane {
            switch (pane, h) {
            case (.home, .open): .list
            case (.list, .pick): .detail
            case (.detail, .back): .list
            default: pane
            }
        }
        """)
        XCTAssertEqual(try a.machine("Dial.level").moves, ["off -turn-> low", "low -turn-> high", "low -press-> off", "high -press-> off"])
        XCTAssertEqual(Set(try a.machine("Climate.mode").moves.filter { $0.hasPrefix("idle -sense()") }),
                       ["idle -sense()-> heat", "idle -sense()-> cool", "idle -sense()-> fan"])
        let deal = try a.machine("Deal.phase")
        XCTAssertEqual(deal.moves, ["open -pay-> funded", "funded -settle-> closed"])
        XCTAssertEqual(try a.machine("hop").moves, ["home -open-> list", "list -pick-> detail", "detail -back-> list"])
    }

    /// A case made from a `String` raw value written as a literal (`Tier(rawValue: "trial")!`).
    func testCaseFromAStringRawValue() throws {
        let a = Analysed.source("""
        final class Plan {
            enum Tier: String { case free, trial = "try", paid }
            private(set) var status: Tier = .free
            func sample() { if status == .free { status = Tier(rawValue: "try")! } }
            func buy() { if status != .paid { status = Tier(rawValue: "paid") ?? .free } }
        }
        """)
        let m = try a.machine("Plan.status")
        XCTAssertTrue(m.moves.isSuperset(of: ["free -sample()-> trial", "free -buy()-> paid", "trial -buy()-> paid"]), "\(m.moves)")
    }

    /// `status = reply.status`, a stored property of the enum's type in another value: any of its cases,
    /// so a case the type never names is a state, reached.
    func testAValueOfTheEnumFromOtherDataIsAnyCase() throws {
        let a = Analysed.source("""
        enum Parcel: String, Codable { case packed, sent, lost, returned }
        struct Report: Codable { let id: Int; let parcel: Parcel }
        final class Tracker {
            private(set) var parcel: Parcel = .packed
            func lose() { guard parcel == .sent else { return }; parcel = .lost }
            func refresh(_ report: Report) { parcel = report.parcel }
        }
        """)
        let m = try a.machine("Tracker.parcel")
        XCTAssertEqual(Set(m.states), ["packed", "sent", "lost", "returned"])
        XCTAssertTrue(m.moves.isSuperset(of: ["packed -refresh()-> sent", "packed -refresh()-> returned"]), "\(m.moves)")
        XCTAssertFalse(m.findingSet.contains { $0.hasPrefix("unreachable_state") }, "\(m.findingSet)")
    }

    /// A state set after an `await` and never tested is one the world changes, as with a callback.
    func testAStateSetAfterAnAwaitIsAMachine() throws {
        let a = Analysed.source("""
        final class Mic {
            enum CaptureState { case idle, live, refused }
            var capture: CaptureState = .idle
            static func allowed() async -> Bool { true }
            func start() async {
                guard await Self.allowed() else { capture = .refused; return }
                capture = .live
            }
            func stop() { capture = .idle }
        }
        """)
        let m = try a.machine("Mic.capture")
        XCTAssertTrue(m.moves.isSuperset(of: ["idle -start()-> live", "idle -start()-> refused", "live -stop()-> idle"]), "\(m.moves)")
    }

    /// `let job = api.load { … }; state = .loading; job.resume()`: the callback comes in the state set after
    /// it was registered.
    func testWorkStartedBeforeTheMethodSetsTheState() throws {
        let a = Analysed.source("""
        final class Vault {
            enum Gate { case shut, checking, open, denied }
            private var gate: Gate = .shut
            private let checker = Checker()
            func unlock() {
                guard gate == .shut || gate == .denied else { return }
                checker.verify { [weak self] ok in
                    self?.gate = ok ? .open : .denied
                }
                gate = .checking
            }
            func lock() { gate = .shut }
        }
        final class Checker { func verify(_ done: @escaping (Bool) -> Void) {} }
        """)
        let m = try a.machine("Vault.gate")
        XCTAssertEqual(Set(m.moves.filter { $0.contains("callback") }), ["checking -unlock() callback-> open", "checking -unlock() callback-> denied"])
        XCTAssertFalse(m.findingSet.contains("dead_end_state checking"), "\(m.findingSet)")
    }

    /// Events forwarded to a `switch (state, event)` method as a choice (`send(ok ? .yes : .no)`) or with a
    /// payload (`send(.code(value))`) are those events only.
    func testEventsForwardedAsChoicesOrWithPayloads() throws {
        let a = Analysed.source("""
        final class Pairing {
            enum Signal { case found, yes, no, code(String), again }
            enum Step { case looking, asking, paired, refused, scanned }
            private(set) var step: Step = .looking
            func send(_ s: Signal) {
                switch (step, s) {
                case (.looking, .found): step = .asking
                case (.asking, .yes): step = .paired
                case (.asking, .no): step = .refused
                case (.paired, .code(let c)) where !c.isEmpty: step = .scanned
                case (.refused, .again), (.scanned, .again): step = .looking
                default: break
                }
            }
            func answer(_ ok: Bool) { send(ok ? .yes : .no) }
            func read(_ value: String) { send(.code(value)) }
        }
        """)
        let m = try a.machine("Pairing.step")
        XCTAssertEqual(Set(m.moves.filter { $0.contains("answer") }), ["asking -answer()-> paired", "asking -answer()-> refused"])
        XCTAssertEqual(Set(m.moves.filter { $0.contains("read") }), ["paired -read()-> scanned"])
    }

    /// A validity check that throws (`guard stage.canAdvance(to: next) else { throw … }`) called as `try
    /// move(to: .paid)`: no stay where the move is allowed.
    func testATryOfAThrowingHelperThrowsWhereTheHelperDoes() throws {
        let a = Analysed.source("""
        struct Refused: Error {}
        enum Stage {
            case cart, paid, shipped
            func canAdvance(to next: Stage) -> Bool {
                switch (self, next) {
                case (.cart, .paid), (.paid, .shipped): return true
                default: return false
                }
            }
        }
        final class Basket {
            private(set) var stage: Stage = .cart
            func move(to next: Stage) throws {
                guard stage.canAdvance(to: next) else { throw Refused() }
                stage = next
            }
            func pay() throws { try move(to: .paid) }
            func ship() throws { try move(to: .shipped) }
        }
        """)
        let m = try a.machine("Basket.stage")
        XCTAssertFalse(m.allEdges.contains("cart -pay()-> cart"), "\(m.allEdges)")
        XCTAssertFalse(m.allEdges.contains("paid -ship()-> paid"), "\(m.allEdges)")
        XCTAssertTrue(m.moves.isSuperset(of: ["cart -pay()-> paid", "paid -ship()-> shipped"]))
    }

    /// A TCA flag nothing sets back is a latch, no dead end; `state = State(step: .done)` gives the field the
    /// value it is given.
    func testLatchFlagsAndAStateMadeWithAField() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Intro {
            @ObservableState
            struct State: Equatable {
                var step: Step = .hello
                var hasShown = false
            }
            enum Step: Equatable { case hello, details, done }
            enum Action { case appeared, next, skip }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .appeared:
                        state.hasShown = true
                        return .none
                    case .next:
                        if state.step == .hello { state.step = .details } else if state.step == .details { state.step = .done }
                        return .none
                    case .skip:
                        state = State(step: .done, hasShown: state.hasShown)
                        return .none
                    }
                }
            }
        }
        """)
        let shown = try a.machine("Intro.hasShown")
        XCTAssertEqual(shown.terminal, ["true"])
        XCTAssertFalse(shown.findingSet.contains("dead_end_state true"), "\(shown.findingSet)")
        let step = try a.machine("Intro.step")
        XCTAssertTrue(step.moves.isSuperset(of: ["hello -skip-> done", "details -skip-> done"]), "\(step.moves)")
        XCTAssertFalse(step.moves.contains("details -skip-> hello"), "\(step.moves)")
    }

    /// An enum stepping itself by its events (`switch (self, e)`) held by a type that only hands it events
    /// (`ferry.handle(e)`): one machine, the enum's, started by the holder; no second machine of the holder.
    func testAHolderOnlyHandingEventsToItsEnum() throws {
        let a = Analysed.source("""
        enum Tide { case leave, land, moor }
        enum Barge {
            case docked, sailing, moored
            mutating func handle(_ e: Tide) {
                switch (self, e) {
                case (.docked, .leave), (.moored, .leave): self = .sailing
                case (.sailing, .land): self = .docked
                case (.sailing, .moor): self = .moored
                default: break
                }
            }
        }
        struct Quay {
            var barge: Barge = .docked
            mutating func signal(_ e: Tide) { barge.handle(e) }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Barge"])
        XCTAssertEqual(try a.machine("Barge").initial, "docked")
    }

    /// `if let error = state.error, error == .locked` tests the optional field itself: in `locked` the
    /// action surely returns.
    func testAnOptionalFieldBoundInAConditionIsTested() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        enum Refusal: Equatable { case wrongCode, frozen }
        @Reducer
        struct Keypad {
            @ObservableState
            struct State: Equatable { var refusal: Refusal? }
            enum Action { case enter, fail, freeze }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .enter:
                        if let refusal = state.refusal, refusal == .frozen { return .none }
                        state.refusal = nil
                        return .none
                    case .fail:
                        state.refusal = .wrongCode
                        return .none
                    case .freeze:
                        state.refusal = .frozen
                        return .none
                    }
                }
            }
        }
        """)
        let m = try a.machine("Keypad.refusal")
        XCTAssertTrue(m.moves.contains("wrongCode -enter-> nil"), "\(m.moves)")
        XCTAssertFalse(m.moves.contains("frozen -enter-> nil"), "\(m.moves)")
    }

    /// A case under `#if` is a case (of the builds that have it), and a state's custom `init()` gives its
    /// fields their start.
    func testCasesUnderIfConfigAndAStateMadeByItsInitializer() throws {
        let a = Analysed.source("""
        final class Recorder {
            enum Phase {
                case idle, taping
                #if os(iOS)
                case paused
                #endif
            }
            private var phase: Phase = .idle
            func tape() { if phase == .idle { phase = .taping } }
            func pause() { if phase == .taping { phase = .paused } }
            func stop() {
                switch phase {
                case .taping, .paused: phase = .idle
                case .idle: break
                }
            }
        }
        """)
        let m = try a.machine("Recorder.phase")
        XCTAssertEqual(Set(m.states), ["idle", "taping", "paused"])
        XCTAssertEqual(m.moves, ["idle -tape()-> taping", "taping -pause()-> paused", "taping -stop()-> idle", "paused -stop()-> idle"])
        let b = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Kiln {
            @ObservableState
            struct State: Equatable {
                var heat: Heat
                init() { self.heat = .cold }
            }
            enum Heat: Equatable { case cold, firing }
            enum Action { case fire, cool }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .fire: state.heat = .firing
                    case .cool: state.heat = .cold
                    }
                    return .none
                }
            }
        }
        """)
        XCTAssertEqual(try b.machine("Kiln.heat").initial, "cold")
    }

    /// Work `viewDidLoad()` starts comes in the state the machine starts in; a task's `expirationHandler`
    /// is its one end, not a handler called on every change.
    func testWorkStartedOnceAtTheStartAndOneShotHandlers() throws {
        let a = Analysed.source("""
        import UIKit
        final class FeedController: UIViewController {
            private enum Stage { case loading, shown, failed }
            private var stage: Stage = .loading { didSet { paint() } }
            private let source = FeedSource()
            override func viewDidLoad() {
                super.viewDidLoad()
                load()
            }
            @objc private func retry() {
                guard stage == .failed else { return }
                stage = .loading
                load()
            }
            private func load() {
                source.items { [weak self] ok in self?.stage = ok ? .shown : .failed }
            }
            private func paint() { switch stage { case .loading: title = "…"; case .shown: title = "Feed"; case .failed: title = "!" } }
        }
        final class FeedSource { func items(_ done: @escaping (Bool) -> Void) {} }
        final class Syncer {
            enum SyncState { case idle, running, expired, done }
            var syncState: SyncState = .idle
            func handle(job: Job) {
                syncState = .running
                job.expirationHandler = { [weak self] in self?.syncState = .expired }
            }
            func finish() { if syncState == .running { syncState = .done } }
        }
        final class Job { var expirationHandler: (() -> Void)? }
        """)
        let feed = try a.machine("FeedController.stage")
        XCTAssertEqual(Set(feed.moves.filter { $0.contains("callback") }), ["loading -load() callback-> shown", "loading -load() callback-> failed"])
        let sync = try a.machine("Syncer.syncState")
        XCTAssertEqual(Set(sync.moves.filter { $0.contains("expirationHandler") }), ["running -handle() expirationHandler-> expired"])
    }

    /// A state only a listener one method installs changes (`monitor.pathUpdateHandler`) and one stepped by a
    /// `switch` inside a timer's block are machines; payload cases named otherwise stepped case to case stay data.
    func testListenersTimerBlocksAndPayloadCasesSteppedBySwitches() throws {
        let a = Analysed.source("""
        import Foundation
        final class Reachability {
            enum LinkStatus { case unknown, up, down }
            private(set) var link: LinkStatus = .unknown
            private let watcher = PathWatcher()
            func begin() {
                watcher.pathUpdateHandler = { [weak self] ok in self?.link = ok ? .up : .down }
            }
        }
        final class PathWatcher { var pathUpdateHandler: ((Bool) -> Void)? }
        final class Crossing {
            enum Lamp { case red, green, amber }
            private var lamp: Lamp = .red
            private var timer: Timer?
            func go() {
                timer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in
                    guard let self else { return }
                    switch self.lamp {
                    case .red: self.lamp = .green
                    case .green: self.lamp = .amber
                    case .amber: self.lamp = .red
                    }
                }
            }
            func halt() { timer?.invalidate(); lamp = .red }
        }
        final class Pairs {
            enum Storage { case none, one(Int), two(Int, Int) }
            private var storage: Storage = .none
            func append(_ i: Int) {
                switch storage {
                case .none: storage = .one(i)
                case .one(let a): storage = .two(a, i)
                case .two: storage = .one(i)
                }
            }
            func clear() { if case .two = storage { storage = .none } }
        }
        """)
        XCTAssertTrue(try a.machine("Reachability.link").moves.isSuperset(of: ["unknown -begin() pathUpdateHandler-> up", "up -begin() pathUpdateHandler-> down"]))
        XCTAssertTrue(try a.machine("Crossing.lamp").moves.isSuperset(of: ["red -go() callback-> green", "green -go() callback-> amber", "green -halt()-> red"]))
        // (cases carrying data, named otherwise, are data: a storage's representation steps the same way)
        XCTAssertNil(a.machines.first { $0.name == "Pairs.storage" })
    }

    /// A copy of the state switched over in the value assigned back (`let current = state; state = switch
    /// (current, lever) { … }`) is the state; an optional field set from an action's payload takes each value
    /// the reducer is sent.
    func testACopySwitchedInItsOwnAssignmentAndAnOptionalFromAPayload() throws {
        let a = Analysed.source("""
        enum Crank { case pull, push }
        final class Sluice {
            enum State { case shut, opening, open }
            var state: State = .shut
            func apply(_ crank: Crank) {
                let current = state
                state = switch (current, crank) {
                case (.shut, .pull): .opening
                case (.opening, .pull): .open
                case (_, .push): .shut
                case (.open, .pull): .open
                }
            }
        }
        """)
        XCTAssertEqual(try a.machine("Sluice.state").moves, ["shut -pull-> opening", "opening -pull-> open", "opening -push-> shut", "open -push-> shut"])
        let b = Analysed.source("""
        import ComposableArchitecture
        import SwiftUI
        enum Order: Equatable { case byName, byDate }
        @Reducer
        struct Shelf {
            @ObservableState
            struct State: Equatable { var order: Order? }
            enum Action { case orderPicked(Order?) }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case let .orderPicked(order):
                        state.order = order
                        return .none
                    }
                }
            }
        }
        struct ShelfView: View {
            let store: StoreOf<Shelf>
            var body: some View {
                Button("Name") { store.send(.orderPicked(.byName)) }
                Button("None") { store.send(.orderPicked(nil)) }
            }
        }
        """)
        let order = try b.machine("Shelf.order")
        XCTAssertTrue(order.moves.isSuperset(of: ["nil -orderPicked-> byName", "byName -orderPicked-> nil"]), "\(order.moves)")
    }

    /// An enum that is its own machine switching over `consume self`, as over `self`.
    func testAnEnumSwitchingOverConsumeSelf() throws {
        let a = Analysed.source("""
        enum Latch { case pull, push }
        enum Hatch {
            case shut, opening, open
            mutating func apply(_ latch: Latch) {
                switch consume self {
                case .shut: self = latch == .pull ? .opening : .shut
                case .opening: self = latch == .pull ? .open : .shut
                case .open: self = latch == .push ? .shut : .open
                }
            }
        }
        """)
        XCTAssertEqual(try a.machine("Hatch").moves, ["shut -pull-> opening", "opening -pull-> open", "opening -push-> shut", "open -push-> shut"])
    }

    /// A name a `case` pattern binds at the state's place, tested in its `where`, tests the state.
    func testAStateBoundInACasePatternAndTestedInItsWhere() throws {
        let a = Analysed.source("""
        enum Signal { case start, fault(code: Int), off }
        final class Press {
            enum Job { case idle, running, jammed, down }
            var job: Job = .idle
            func receive(_ signal: Signal) {
                switch (job, signal) {
                case (.idle, .start): job = .running
                case (let s, .fault(let code)) where s != .down && code > 0: job = .jammed
                case (_, .off): job = .down
                default: break
                }
            }
        }
        """)
        let m = try a.machine("Press.job")
        XCTAssertTrue(m.moves.isSuperset(of: ["idle -fault-> jammed", "running -fault-> jammed"]), "\(m.moves)")
        XCTAssertFalse(m.moves.contains("down -fault-> jammed"), "\(m.moves)")
    }

    /// A state written twice as the outer key of a nested table traps when the literal is built, whatever
    /// its inner keys: `duplicate_key`.
    func testAnOuterKeyWrittenTwiceInANestedTable() throws {
        let a = Analysed.source("""
        enum Frog: Hashable { case sitting, leaping, swimming }
        enum Nudge: Hashable { case poke, splash, rest }
        final class Pond {
            var frog: Frog = .sitting
            let hops: [Frog: [Nudge: Frog]] = [
                .sitting: [.poke: .leaping],
                .leaping: [.splash: .swimming],
                .swimming: [.rest: .sitting],
                .leaping: [.rest: .sitting],
            ]
            func send(_ n: Nudge) { if let next = hops[frog]?[n] { frog = next } }
        }
        """)
        let m = try a.machine("hops")
        XCTAssertTrue(m.findingSet.contains("duplicate_key leaping/*"), "\(m.findingSet)")
    }
}
