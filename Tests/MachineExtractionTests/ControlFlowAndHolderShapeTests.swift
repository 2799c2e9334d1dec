import Foundation
import MachineModel
import XCTest
@testable import MachineExtraction

/// Shapes found in probes of session 43: a holder telling its state objects apart by type, transition
/// functions returning an optional, labelled event loops, stepping functions named like predicates,
/// enums stepping themselves event first, and listing odd trees. Made-up identifiers.
final class ControlFlowAndHolderShapeTests: XCTestCase {
    /// A holder whose state objects are marker types it tests itself (`if state is Locked`, `guard state
    /// is X else { return }`, `case is X:`, `if let s = state as? X`, `!(state is X)`): each write is from
    /// the states the tests allow; the other states stay.
    func testHolderTestingTheTypeOfItsStateObject() throws {
        let a = Analysed.source("""
        protocol PumpPhase: AnyObject {}
        final class Idle: PumpPhase {}
        final class Priming: PumpPhase { var tries = 0 }
        final class Pumping: PumpPhase {}
        final class Jammed: PumpPhase {}
        final class Pump {
            var phase: PumpPhase = Idle()
            func prime() {
                guard phase is Idle else { return }
                phase = Priming()
            }
            func start() {
                if let p = phase as? Priming {
                    if p.tries > 2 { phase = Jammed() } else { phase = Pumping() }
                }
            }
            func tick() {
                switch phase {
                case let pr as Priming where pr.tries > 5: phase = Jammed()
                case is Pumping: break
                default: return
                }
            }
            func stop() {
                if !(phase is Jammed) { phase = Idle() }
            }
        }
        """)
        let m = try a.machine("Pump.phase")
        XCTAssertEqual(m.initial, "Idle")
        XCTAssertEqual(m.moves, ["Idle -prime-> Priming", "Priming -start-> Jammed", "Priming -start-> Pumping",
                                 "Priming -tick-> Jammed", "Priming -stop-> Idle", "Pumping -stop-> Idle"])
        // (every way through `start` from Priming writes; `tick`'s `where` may not hold)
        XCTAssertNil(m.edge("Priming", "start", "Priming"))
        XCTAssertNotNil(m.edge("Priming", "tick", "Priming"))
        XCTAssertNil(m.edge("Jammed", "stop", "Idle"))
    }

    /// `state = next(state, e) ?? state` and `if let n = step(s, e) { s = n }`: the function's machine
    /// starts where the property does.
    func testOptionalReturningTransitionFunctionStartsWhereItsHolderDoes() throws {
        let a = Analysed.source("""
        enum Reel { case empty, loaded, playing }
        enum ReelEvent { case load, play, stop }
        func advance(_ s: Reel, _ e: ReelEvent) -> Reel? {
            switch (s, e) {
            case (.empty, .load): return .loaded
            case (.loaded, .play): return .playing
            case (.playing, .stop): return .loaded
            default: return nil
            }
        }
        final class Deck {
            var reel: Reel = .empty
            func send(_ e: ReelEvent) { reel = advance(reel, e) ?? reel }
        }
        enum Tap { case shut, open }
        enum TapCmd { case turn }
        let tapStep: (Tap, TapCmd) -> Tap? = { t, c in
            switch (t, c) {
            case (.shut, .turn): return .open
            default: return nil
            }
        }
        final class Sink {
            var tap = Tap.shut
            func apply(_ c: TapCmd) { if let n = tapStep(tap, c) { tap = n } }
        }
        """)
        XCTAssertEqual(try a.machine("advance").initial, "empty")
        XCTAssertEqual(try a.machine("tapStep").initial, "shut")
    }

    /// `events: for await command in commands { … continue events … break events }`: the stream's cases are
    /// the inputs, as without the label.
    func testLabelledEventLoopOverAStream() throws {
        let a = Analysed.source("""
        enum Flow { case shut, flowing }
        enum FlowCommand { case open, close, halt }
        final class Valve {
            private(set) var flow: Flow = .shut
            func run(_ commands: AsyncStream<FlowCommand>) async {
                events: for await command in commands {
                    switch command {
                    case .open:
                        guard flow == .shut else { continue events }
                        flow = .flowing
                    case .close:
                        if flow == .flowing { flow = .shut }
                    case .halt:
                        break events
                    }
                }
            }
        }
        """)
        let m = try a.machine("Valve.flow")
        XCTAssertEqual(Set(m.inputs), ["open", "close", "halt"])
        XCTAssertEqual(m.moves, ["shut -open-> flowing", "flowing -close-> shut"])
    }

    /// `phase = Rules.transition(phase, event)` steps the property with the function's machine: no second
    /// machine of the holder (a two-argument call named like `canTransition` tests it only in a condition).
    func testStaticTransitionFunctionOfAnotherTypeIsOneMachine() throws {
        let a = Analysed.source("""
        enum Ticket { case open, review, closed }
        enum TicketEvent { case submit, approve }
        enum TicketRules {
            static func transition(_ t: Ticket, _ e: TicketEvent) -> Ticket {
                switch (t, e) {
                case (.open, .submit): return .review
                case (.review, .approve): return .closed
                default: return t
                }
            }
        }
        final class Desk {
            private var ticket = Ticket.open
            func handle(_ e: TicketEvent) { ticket = TicketRules.transition(ticket, e) }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["transition"])
        XCTAssertEqual(try a.machine("transition").initial, "open")
    }

    /// An enum stepping itself with `switch event { case .advance: switch self { … } }` is its own machine;
    /// the holder that only hands it events has none.
    func testEnumSteppingItselfEventFirstLeavesItsHolderNoMachine() throws {
        let a = Analysed.source("""
        enum SignalInput { case advance, fault }
        enum Beacon {
            case red, green, flashing
            mutating func apply(_ i: SignalInput) {
                switch i {
                case .advance:
                    switch self {
                    case .red: self = .green
                    case .green: self = .red
                    case .flashing: break
                    }
                case .fault:
                    self = .flashing
                }
            }
        }
        struct Crossing {
            var beacon: Beacon = .red
            mutating func on(_ i: SignalInput) { beacon.apply(i) }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Beacon"])
    }

    /// The bracket-depth scan skips raw strings (`#"say "[[[…" loudly"#`) and nested block comments as
    /// text: nothing after them is blanked.
    func testRawStringsAndNestedCommentsAreNotCode() throws {
        let deep = String(repeating: "[", count: 14)
        let a = Analysed.source("""
        let banner = #"say "\(deep)" loudly"#
        /* outer /* inner */ still a comment \(deep)
           and " an odd quote
        */
        enum Filter { case clean, clogging, clogged }
        final class Tank {
            var filter: Filter = .clean
            func run() {
                switch filter {
                case .clean: filter = .clogging
                case .clogging: filter = .clogged
                case .clogged: break
                }
            }
        }
        """)
        XCTAssertEqual(try a.machine("Tank.filter").moves, ["clean -run()-> clogging", "clogging -run()-> clogged"])
        XCTAssertFalse(a.diagnosticLines.contains { $0.contains("skipped lines") }, "\(a.diagnosticLines)")
    }

    /// A folder linked into the tree is searched (a file reached twice, through the link and directly, is
    /// read once); vendored folders (`Pods`, `Carthage`) are not; files directly in a folder given by name
    /// belong to the folder's module, so two folders declaring the same types do not clash.
    func testListingFollowsLinksOnceSkipsVendoredCodeAndNamesGivenFolders() throws {
        let door = """
        enum Hinge { case shut, open, broken }
        final class Door {
            var hinge: Hinge = .shut
            func push() { if hinge == .shut { hinge = .open } }
            func kick() { hinge = .broken }
        }
        """
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["real", "Pods/Kit", "Carthage/Checkouts/Kit", "App", "Lib"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            try door.write(to: root.appendingPathComponent(name + "/Door.swift"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("alias").path,
                                                   withDestinationPath: root.appendingPathComponent("real").path)
        var diagnostics: [Diagnostic] = []
        let listed = SourceSet.list(paths: [root.path, root.appendingPathComponent("alias/Door.swift").path], diagnostics: &diagnostics)
        XCTAssertEqual(listed.map { String($0.dropFirst(root.path.count)) }, ["/App/Door.swift", "/Lib/Door.swift", "/real/Door.swift"])
        let a = Analysed(paths: [root.appendingPathComponent("App").path, root.appendingPathComponent("Lib").path])
        XCTAssertEqual(a.machines.map(\.id), ["App/Door.hinge", "Lib/Door.hinge"])
    }
    /// Reducer closures over a struct state: typed and returning a changed copy (RxFeedback's `reduce:`), the
    /// value of a variable annotated with a typealias of `(inout S, A) -> Void`, and the trailing closure of
    /// a `Store<S, A>(initialState:)`: each a machine per field.
    func testReducerClosuresOverAStructState() throws {
        let a = Analysed.source("""
        enum Zoom { case fitted, zoomed }
        enum ZoomEvent { case pinch, reset }
        struct Viewer { var zoom: Zoom = .fitted; var page = 0 }
        func makeSystem() -> Any {
            Feedback.system(initialState: Viewer(), reduce: { (state: Viewer, event: ZoomEvent) -> Viewer in
                var s = state
                switch event {
                case .pinch: s.zoom = s.zoom == .fitted ? .zoomed : .fitted
                case .reset: s.zoom = .fitted
                }
                return s
            })
        }
        typealias Reducing<S, A> = (inout S, A) -> Void
        enum Deck { case idle, spinning }
        enum DeckAction { case spin, halt }
        struct Turntable { var deck: Deck = .idle }
        let turntableReducer: Reducing<Turntable, DeckAction> = { state, action in
            switch action {
            case .spin: if state.deck == .idle { state.deck = .spinning }
            case .halt: state.deck = .idle
            }
        }
        final class Store<S, A> {
            var state: S
            let reducer: (inout S, A) -> Void
            init(initialState: S, reducer: @escaping (inout S, A) -> Void) { state = initialState; self.reducer = reducer }
        }
        enum Shelf { case browsing, basket }
        enum ShelfAction { case open, close }
        struct Shop { var shelf: Shelf = .browsing }
        let shop = Store<Shop, ShelfAction>(initialState: Shop()) { state, action in
            switch action {
            case .open: state.shelf = .basket
            case .close: state.shelf = .browsing
            }
        }
        """)
        XCTAssertEqual(try a.machine("Viewer.zoom").moves, ["fitted -pinch-> zoomed", "zoomed -pinch-> fitted", "zoomed -reset-> fitted"])
        XCTAssertEqual(try a.machine("Turntable.deck").moves, ["idle -spin-> spinning", "spinning -halt-> idle"])
        XCTAssertEqual(try a.machine("Shop.shelf").moves, ["browsing -open-> basket", "basket -close-> browsing"])
    }

    /// Starts of mapping functions: the seed of a `scan` given the function (`scan(.locked, accumulator:
    /// Gate.step)`, or a closure calling it), a reactor's `initialState`, a store built with `initial:`; and
    /// a function returning ternaries (`return s == .lowered ? .moving : s`) is a mapping.
    func testStartsOfMappingFunctionsAndTernaryReturns() throws {
        let a = Analysed.source("""
        enum Shade {
            case raised, moving, lowered
            enum Command { case up, down, arrived }
            static func apply(_ shade: Shade, _ command: Command) -> Shade {
                switch command {
                case .up: return shade == .lowered ? .moving : shade
                case .down: return shade == .raised ? .moving : shade
                case .arrived: return shade == .moving ? .lowered : shade
                }
            }
        }
        final class ShadeController {
            func attach(_ commands: Stream<Shade.Command>) {
                _ = commands.scan(Shade.lowered, accumulator: Shade.apply)
            }
        }
        final class Radio: Reactor {
            enum Mutation { case tuned, lost }
            enum State { case silent, playing }
            let initialState: State = .silent
            func reduce(state: State, mutation: Mutation) -> State {
                switch (state, mutation) {
                case (.silent, .tuned): return .playing
                case (.playing, .lost): return .silent
                default: return state
                }
            }
        }
        enum Route { case splash, home }
        enum RouteAction { case finished, loggedOut }
        struct Nav { var route: Route = .splash }
        func routeReducer(_ nav: inout Nav, _ action: RouteAction) {
            switch (nav.route, action) {
            case (.splash, .finished): nav.route = .home
            case (.home, .loggedOut): nav.route = .splash
            default: break
            }
        }
        final class Hub<S, A> { init(initial: S, reduce: @escaping (inout S, A) -> Void) {} }
        let hub = Hub(initial: Nav(route: .home), reduce: routeReducer)
        """)
        let shade = try a.machine("apply")
        XCTAssertEqual(shade.moves, ["lowered -up-> moving", "raised -down-> moving", "moving -arrived-> lowered"])
        XCTAssertEqual(shade.initial, "lowered")
        XCTAssertEqual(try a.machine("reduce").initial, "silent")
        XCTAssertEqual(try a.machine("Nav.route").initial, "home")
    }

    /// Rows looked up with `first(where:)`: the first row of a pair wins, a later one is shadowed and leads
    /// nowhere; a write left last on a way that never runs is no placeholder (its state is unreachable).
    func testFirstRowWinsAndAnUnrunWriteIsNoPlaceholder() throws {
        let a = Analysed.source("""
        enum Phase { case a, b, c }
        enum PhaseEvent { case x, y }
        struct Move { let from: Phase; let on: PhaseEvent; let to: Phase }
        let moves: [Move] = [
            Move(from: .a, on: .x, to: .b),
            Move(from: .b, on: .y, to: .a),
            Move(from: .a, on: .x, to: .c),
        ]
        final class Belt {
            private(set) var phase: Phase = .a
            func send(_ event: PhaseEvent) {
                guard let move = moves.first(where: { $0.from == phase && $0.on == event }) else { return }
                phase = move.to
            }
        }
        enum Job { case idle, printing, weird }
        final class Printer {
            var job: Job = .idle
            func start() {
                guard job == .idle else { return }
                if job == .printing {
                    job = .weird
                    return
                }
                job = .printing
            }
            func clear() { if job == .printing { job = .idle } }
        }
        """)
        let belt = try a.machine("moves")
        XCTAssertEqual(belt.moves, ["a -x-> b", "b -y-> a"])
        XCTAssertTrue(belt.findingSet.contains("shadowed_rule line:7"), "\(belt.findingSet)")
        XCTAssertTrue(belt.findingSet.contains("unreachable_state c"), "\(belt.findingSet)")
        XCTAssertTrue(try a.machine("Printer.job").findingSet.contains("unreachable_state weird"))
    }
    /// A computed `Bool` of the state's enum tested on the name a `case` binds at the state's place
    /// (`case (let l, .hang) where l.isBusy`) is decided per state: the later case it covers is shadowed.
    func testComputedBoolOfABoundStateIsDecidedPerState() throws {
        let a = Analysed.source("""
        enum Line {
            case idle, ringing, talking
            var isBusy: Bool { self != .idle }
        }
        enum Tap { case call, pickUp, hang }
        final class Handset {
            var line: Line = .idle
            func handle(_ e: Tap) {
                switch (line, e) {
                case (.idle, .call): line = .ringing
                case (.ringing, .pickUp): line = .talking
                case (let l, .hang) where l.isBusy: line = .idle
                case (.ringing, .hang): line = .talking
                default: break
                }
            }
        }
        """)
        let m = try a.machine("Handset.line")
        XCTAssertEqual(m.moves, ["idle -call-> ringing", "ringing -pickUp-> talking", "ringing -hang-> idle", "talking -hang-> idle"])
        XCTAssertEqual(m.findingSet, ["shadowed_rule line:13"])
    }

    /// A property named as a state, switched over and written only in a closure, is a candidate `--explain`
    /// speaks of (generated code sets other properties in decoding closures: not those); a
    /// start marked `// machine-viz: initial` leaves no note that the start is unknown.
    func testClosureOnlyWritesAreACandidateAndAMarkedStartNeedsNoNote() throws {
        let a = Analysed.source("""
        enum Level { case empty, half, full }
        final class Meter {
            var state: Level = .empty
            func fill() {
                switch state {
                case .empty: DispatchQueue.main.async { self.state = .full }
                case .half, .full: break
                }
            }
        }
        enum Stage {
            // machine-viz: initial
            case browsing
            case filled, paid
        }
        enum Tap { case add, pay }
        final class Basket {
            var stage: Stage
            init(restoring stage: Stage) { self.stage = stage }
            func handle(_ e: Tap) {
                switch (stage, e) {
                case (.browsing, .add): stage = .filled
                case (.filled, .pay): stage = .paid
                default: break
                }
            }
        }
        """)
        XCTAssertTrue(a.diagnosticLines.contains { $0.hasPrefix("note 5: `Meter.state` is shaped like a state machine") }, "\(a.diagnosticLines)")
        XCTAssertEqual(try a.machine("Basket.stage").initial, "browsing")
        XCTAssertFalse(a.diagnosticLines.contains { $0.contains("no initial state") }, "\(a.diagnosticLines)")
    }
    /// A list of conditions some of which the state decides keeps only the others in the guard text
    /// (`guard step != .paid, !items.isEmpty`: `!items.isEmpty`).
    func testGuardTextsKeepOnlyTheConditionsOfData() throws {
        let a = Analysed.source("""
        enum Step { case cart, address, paid }
        final class Checkout {
            private(set) var step: Step = .cart
            var items: [String] = []
            func next() {
                guard step != .paid, !items.isEmpty else { return }
                step = step == .cart ? .address : .paid
            }
            func reset() { step = .cart }
        }
        """)
        let m = try a.machine("Checkout.step")
        let guards = Set(m.edges.filter { $0.from != $0.to }.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText })
        XCTAssertEqual(guards, ["!items.isEmpty"])
    }
}
