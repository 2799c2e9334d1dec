import MachineModel
import XCTest

/// Shapes of hand-written predicates, streams and TCA helpers that were read wrongly or not at all
/// (made-up identifiers): predicates keyed on the target or on lists and tables, `for await` loops,
/// methods returning data, `@Shared` fields, fields written through `inout` helpers and protocol defaults.
final class PredicateAndStreamShapeTests: XCTestCase {
    /// `switch next { case .paid: return stage == .fresh … }`: each caller moves only from the states the
    /// predicate allows for its target.
    func testAPredicateKeyedOnTheTargetDecidesItsCallers() throws {
        let a = Analysed.source("""
        enum Stage { case fresh, paid, packed, voided }
        final class Parcel {
            var stage: Stage = .fresh
            func canMove(to next: Stage) -> Bool {
                switch next {
                case .fresh: return false
                case .paid: return stage == .fresh
                case .packed: return stage == .paid
                case .voided: return stage == .fresh || stage == .paid
                }
            }
            private func move(to next: Stage) {
                guard canMove(to: next) else { return }
                stage = next
            }
            func pay() { move(to: .paid) }
            func pack() { move(to: .packed) }
            func void() { move(to: .voided) }
        }
        """)
        let parcel = try a.machine("Parcel.stage")
        XCTAssertEqual(parcel.moves, ["fresh -pay()-> paid", "paid -pack()-> packed", "fresh -void()-> voided", "paid -void()-> voided"])
        XCTAssertNil(parcel.edge("fresh", "pay()", "paid")?.guardText)
    }

    /// `phase.nextStates.contains(next)` with `var nextStates: Set<Heat>` on the enum: the list decides
    /// (and the owner is found by it even when its property is not named as a state).
    func testAListOfNextCasesDecidesItsCallers() throws {
        let a = Analysed.source("""
        enum Heat {
            case cold, warming, hot
            var nextStates: Set<Heat> {
                switch self {
                case .cold: return [.warming]
                case .warming: return [.hot]
                case .hot: return [.cold]
                }
            }
        }
        final class Oven {
            var level: Heat = .cold
            func canGo(to next: Heat) -> Bool { level.nextStates.contains(next) }
            private func go(to next: Heat) {
                guard canGo(to: next) else { return }
                level = next
            }
            func ignite() { go(to: .warming) }
            func peak() { go(to: .hot) }
            func douse() { go(to: .cold) }
        }
        """)
        let oven = try a.machine("Oven.level")
        XCTAssertEqual(oven.moves, ["cold -ignite()-> warming", "warming -peak()-> hot", "hot -douse()-> cold"])
    }

    /// The enum's own predicate in other spellings than a `switch (self, next)` of literals: keyed on the
    /// target, on the source with comparisons and lists, `if case` pairs, a `where` on bound values; and a
    /// static table it looks up, which decides the callers without drawing the predicate twice.
    func testEnumPredicatesInOtherSpellings() throws {
        let a = Analysed.source("""
        enum Memo {
            case draft, sent, paid
            func canMove(to next: Memo) -> Bool {
                switch next {
                case .draft: return false
                case .sent: return self == .draft
                case .paid: return self == .sent
                }
            }
        }
        enum Page {
            case editing, saving, saved
            func canTransition(to next: Page) -> Bool {
                switch self {
                case .editing: return next == .saving
                case .saving: return [.saved, .editing].contains(next)
                case .saved: return next == .editing
                }
            }
        }
        enum Spool {
            case queued, printing, done
            func canTransition(to next: Spool) -> Bool {
                if case .queued = self, case .printing = next { return true }
                if case .printing = self, case .done = next { return true }
                return false
            }
        }
        enum Query {
            case empty, typing, found
            func canTransition(to next: Query) -> Bool {
                switch (self, next) {
                case let (a, b) where a == b: return false
                case (.empty, .typing): return true
                case (.empty, _): return false
                default: return true
                }
            }
        }
        enum Booking: Hashable {
            case held, confirmed, cancelled
            static let next: [Booking: Set<Booking>] = [.held: [.confirmed, .cancelled], .confirmed: [.cancelled]]
            func canTransition(to n: Booking) -> Bool { Self.next[self]?.contains(n) ?? false }
        }
        final class Desk {
            private(set) var booking: Booking = .held
            private func move(to next: Booking) {
                guard booking.canTransition(to: next) else { return }
                booking = next
            }
            func confirm() { move(to: .confirmed) }
            func cancel() { move(to: .cancelled) }
        }
        """)
        XCTAssertEqual(try a.machine("Memo.canMove").moves, ["draft -*-> sent", "sent -*-> paid"])
        XCTAssertEqual(try a.machine("Page.canTransition").moves, ["editing -*-> saving", "saving -*-> saved", "saving -*-> editing", "saved -*-> editing"])
        XCTAssertEqual(try a.machine("Spool.canTransition").moves, ["queued -*-> printing", "printing -*-> done"])
        XCTAssertEqual(try a.machine("Query.canTransition").moves, ["empty -*-> typing", "typing -*-> empty", "typing -*-> found", "found -*-> empty", "found -*-> typing"])
        XCTAssertEqual(try a.machine("Desk.booking").moves, ["held -confirm()-> confirmed", "held -cancel()-> cancelled", "confirmed -cancel()-> cancelled"])
        // (the table is its own machine; the predicate reading it is not drawn again)
        XCTAssertNil(a.machines.first { $0.name == "Booking.canTransition" })
        // a predicate that is not a relation of the enum's values alone stays unread: no machine, a note
        let data = Analysed.source("""
        enum Tier {
            case basic, plus, pro
            var rank: Int { 0 }
            func canTransition(to next: Tier) -> Bool { next.rank > rank }
        }
        """)
        XCTAssertTrue(data.machines.isEmpty, "\(data.machines.map(\.name))")
        // (and says so)
        XCTAssertTrue(data.diagnosticLines.contains { $0.hasPrefix("note 4:") && $0.contains("`Tier.canTransition`") }, "\(data.diagnosticLines)")
    }

    /// `for await` in a method: its body runs for each value, later (the method's own input changes
    /// nothing before it waits), not also as the call itself.
    func testAForAwaitLoopRunsOnlyForItsValues() throws {
        let a = Analysed.source("""
        actor Decoder {
            enum Phase { case header, body, done }
            private var phase: Phase = .header
            func consume(_ bytes: AsyncStream<UInt8>) async {
                for await b in bytes {
                    switch phase {
                    case .header: if b == 0x7E { phase = .body }
                    case .body: if b == 0 { phase = .done }
                    case .done: return
                    }
                }
            }
        }
        """)
        let decoder = try a.machine("Decoder.phase")
        XCTAssertEqual(decoder.moves, ["header -consume() on bytes-> body", "body -consume() on bytes-> done"])
    }

    /// A method returning data to its caller (`-> String`) returns no effect; a type of the inputs named
    /// like one of the standard library's (`struct Result`) is no data type.
    func testReturnedDataIsNoEffect() throws {
        let a = Analysed.source("""
        actor Keys {
            enum Slot { case empty, filled(String) }
            private var state: Slot = .empty
            func key() -> String {
                switch state {
                case .filled(let k): return k
                case .empty:
                    state = .filled("k")
                    return "k"
                }
            }
            func clear() { state = .empty }
        }
        struct Pipe {
            struct Result { var flush: Bool }
            enum Mode { case idle, busy }
            private var mode: Mode = .idle
            mutating func push() -> Result {
                guard mode == .idle else { return Result(flush: false) }
                mode = .busy
                return Result(flush: true)
            }
            mutating func drain() { mode = .idle }
        }
        """)
        let keys = try a.machine("Keys.state")
        XCTAssertNil(keys.effectLabel("empty", "key()", "filled"))
        XCTAssertNil(keys.edge("filled", "key()", "filled").flatMap { $0.noop ? nil : $0 })
        let pipe = try a.machine("Pipe.mode")
        XCTAssertNotNil(pipe.effectLabel("idle", "push()", "busy"))
    }

    /// TCA: a `@Shared` field written in its lock, a field handed `inout` to a protocol's default method,
    /// and a State method that is a protocol's default; `Result { … }` is the standard library's.
    func testTCAFieldsWrittenThroughLocksHelpersAndProtocolDefaults() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        enum Look: Equatable { case system, dark }
        enum Fetch: Equatable { case none, busy, done }
        enum Sync: Equatable { case clean, dirty }
        protocol Fetching {}
        extension Fetching {
            func begin(_ f: inout Fetch) { f = .busy }
        }
        protocol Dirtying { var sync: Sync { get set } }
        extension Dirtying {
            mutating func touch() { sync = .dirty }
        }
        @Reducer
        struct Prefs: Fetching {
            @ObservableState
            struct State: Equatable, Dirtying {
                @Shared(.appStorage("look")) var look: Look = .system
                var fetch: Fetch = .none
                var sync: Sync = .clean
            }
            enum Action { case darkTapped, load, loaded(Result<Int, Error>), edit }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .darkTapped:
                        state.$look.withLock { $0 = .dark }
                        return .none
                    case .load:
                        begin(&state.fetch)
                        return .run { send in await send(.loaded(Result { 1 })) }
                    case .loaded:
                        return .none
                    case .edit:
                        state.touch()
                        return .none
                    }
                }
            }
        }
        """)
        XCTAssertEqual(try a.machine("Prefs.look").moves, ["system -darkTapped-> dark"])
        XCTAssertEqual(try a.machine("Prefs.fetch").moves, ["none -load-> busy", "done -load-> busy"])
        XCTAssertEqual(try a.machine("Prefs.sync").moves, ["clean -edit-> dirty"])
        XCTAssertFalse(a.diagnosticLines.contains { $0.contains("`Result`") }, "\(a.diagnosticLines)")
    }

    /// An app's own generic machine class given its moves one call at a time (`addTransition(from:to:)`,
    /// one of them under an `if`), or as an array of moves: a machine of allowed moves, starting where its initializer says; a graph's
    /// `addEdge(from:to:)` is none.
    func testMovesRegisteredOnAnAppsOwnMachineClass() throws {
        let a = Analysed.source("""
        final class Machine<S: Hashable> {
            private var moves: [S: Set<S>] = [:]
            private(set) var current: S
            init(initial: S) { current = initial }
            func addTransition(from: S, to: S) { moves[from, default: []].insert(to) }
        }
        struct Move<S> { var from: S; var to: S }
        final class Flow<S: Hashable> {
            init(start: S, transitions: [Move<S>]) {}
        }
        final class Graph<N: Hashable> {
            func addEdge(from: N, to: N) {}
        }
        enum Feed: Hashable { case idle, loading, shown, failed }
        enum Pay: Hashable { case ready, paying, paid }
        enum Part: Hashable { case core, net, app }
        final class FeedModel {
            private let machine = Machine<Feed>(initial: .idle)
            private let flow = Flow<Pay>(start: .ready, transitions: [
                .init(from: .ready, to: .paying),
                .init(from: .paying, to: .paid),
            ])
            private let graph = Graph<Part>()
            init(debug: Bool) {
                machine.addTransition(from: .idle, to: .loading)
                machine.addTransition(from: .loading, to: .shown)
                machine.addTransition(from: .loading, to: .failed)
                machine.addTransition(from: .failed, to: .loading)
                if debug { machine.addTransition(from: .shown, to: .idle) }
                graph.addEdge(from: .app, to: .net)
                graph.addEdge(from: .net, to: .core)
            }
        }
        """)
        let machine = try a.machine("machine")
        XCTAssertEqual(machine.moves, ["idle -*-> loading", "loading -*-> shown", "loading -*-> failed", "failed -*-> loading", "shown -*-> idle"])
        XCTAssertEqual(machine.initial, "idle")
        XCTAssertEqual(try a.machine("flow").moves, ["ready -*-> paying", "paying -*-> paid"])
        XCTAssertNil(a.machines.first { $0.name.contains("graph") })
    }

    /// A local variable of an enum that a loop's `switch` steps (a tokenizer): a machine of the function,
    /// its input the loop's next turn; the loop may stop in any state (no dead ends). A local only read in
    /// the loop is none.
    func testALocalVariableSteppedByALoopIsAMachine() throws {
        let a = Analysed.source("""
        enum Lex { case start, number, word }
        enum Shade { case light, dark }
        struct Tokenizer {
            func tokenize(_ text: String) -> [String] {
                var state = Lex.start
                var tokens: [String] = []
                for ch in text {
                    switch state {
                    case .start:
                        if ch.isNumber { state = .number } else if ch.isLetter { state = .word }
                    case .number:
                        if !ch.isNumber { tokens.append("n"); state = .start }
                    case .word:
                        if !ch.isLetter { tokens.append("w"); state = .start }
                    }
                }
                return tokens
            }
            func paint(_ rows: [Int]) -> Int {
                var shade: Shade = .light
                var total = 0
                for row in rows {
                    switch shade {
                    case .light: total += row
                    case .dark: total -= row
                    }
                }
                shade = .dark
                return total
            }
        }
        """)
        let lexer = try a.machine("Tokenizer.tokenize().state")
        XCTAssertEqual(lexer.initial, "start")
        XCTAssertEqual(lexer.moves, ["start -tokenize() on text-> number", "start -tokenize() on text-> word",
                                     "number -tokenize() on text-> start", "word -tokenize() on text-> start"])
        XCTAssertFalse(lexer.findingSet.contains { $0.hasPrefix("dead_end_state") }, "\(lexer.findingSet)")
        XCTAssertNil(a.machines.first { $0.name.contains("shade") })
    }

    /// A reducing function (`static func reduce(_:_:) -> State`) whose result a stored property keeps
    /// starts where that property starts; a local stepped by a loop over events of an enum takes them as
    /// its inputs; a local read from a channel each turn is the loop's input, not a machine.
    func testWhereReducersAndLocalsStartAndWhatTheyTake() throws {
        let a = Analysed.source("""
        struct Vend {
            enum State: Equatable { case idle, paid, broken }
            enum Input { case coin, serve, fix }
            static func reduce(_ state: State, _ input: Input) -> State {
                switch (state, input) {
                case (.idle, .coin): return .paid
                case (.paid, .serve): return .idle
                case (.broken, .fix): return .idle
                default: return state
                }
            }
        }
        actor VendLoop {
            private var state = Vend.State.idle
            func run(_ inputs: AsyncStream<Vend.Input>) async {
                for await input in inputs { state = Vend.reduce(state, input) }
            }
        }
        enum Gate { case shut, opening, open }
        enum Push { case button, reached }
        enum Command { case list, stop }
        func drive(_ pushes: AsyncStream<Push>) async {
            var gate = Gate.shut
            for await push in pushes {
                switch (gate, push) {
                case (.shut, .button): gate = .opening
                case (.opening, .reached): gate = .open
                default: continue
                }
            }
        }
        func serve(_ read: () -> Command) {
            var command: Command = .list
            while true {
                switch command {
                case .list: print("l")
                case .stop: return
                }
                command = read()
            }
        }
        """)
        let vend = try a.machine("reduce")
        XCTAssertEqual(vend.initial, "idle")
        XCTAssertTrue(vend.findingSet.contains("unreachable_state broken"), "\(vend.findingSet)")
        XCTAssertEqual(try a.machine("drive().gate").moves, ["shut -button-> opening", "opening -reached-> open"])
        XCTAssertNil(a.machines.first { $0.name.contains("command") })
    }

    /// TCA: an alert in a `@Reducer enum Destination` goes away after its button even where the reducer
    /// binds the button's payload (`.confirmPurge(let id)`): one edge to nil, not also one staying.
    func testAnAlertButtonWithAPayloadDismissesItsDestination() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Shelf {
            @Reducer
            enum Destination {
                case alert(AlertState<Alert>)
                enum Alert: Equatable { case confirmPurge(id: Int) }
            }
            @ObservableState
            struct State: Equatable {
                @Presents var destination: Destination.State?
                var purged = false
            }
            enum Action { case purgeTapped, destination(PresentationAction<Destination.Action>) }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .purgeTapped:
                        state.destination = .alert(AlertState { TextState("Purge?") } actions: {
                            ButtonState(role: .destructive, action: .confirmPurge(id: 1)) { TextState("Purge") }
                        })
                        return .none
                    case let .destination(.presented(.alert(.confirmPurge(id)))):
                        state.purged = id > 0
                        return .none
                    case .destination:
                        return .none
                    }
                }
                .ifLet(\\.$destination, action: \\.destination)
            }
        }
        """)
        let destination = try a.machine("Shelf.destination")
        let button = destination.edges.filter { $0.trigger.contains("confirmPurge") }
        XCTAssertEqual(button.map { "\($0.from) -> \($0.to)" }, ["alert -> nil"])
    }

    /// Holes found in the shapes above: a predicate's other condition stays a guard; an enum predicate may
    /// ask the enum's computed `Bool`; a local assigned a run-time value in one branch is still a machine;
    /// a cancellation handler runs later, as work of its own.
    func testHolesOfThesePredicatesLocalsAndHandlers() throws {
        let a = Analysed.source("""
        enum Lane { case a, b, c }
        final class Gate {
            var state: Lane = .a
            var admin = false
            func canTransition(to next: Lane) -> Bool {
                switch next {
                case .a: return state == .c
                case .b: return state == .a && admin
                case .c: return state == .b
                }
            }
            private func transition(to next: Lane) {
                guard canTransition(to: next) else { return }
                state = next
            }
            func toB() { transition(to: .b) }
            func toC() { transition(to: .c) }
            func toA() { transition(to: .a) }
        }
        enum Leg {
            case start, mid, done
            var isLast: Bool { self == .done }
            func canTransition(to next: Leg) -> Bool {
                if isLast { return false }
                return next != self
            }
        }
        enum Mode { case normal, insert }
        func edit(_ keys: [Character], saved: Mode) {
            var mode = Mode.normal
            for k in keys {
                switch mode {
                case .normal: if k == "i" { mode = .insert } else if k == "r" { mode = saved }
                case .insert: if k == "e" { mode = .normal }
                }
            }
        }
        enum Fetch { case idle, busy, aborted }
        final class Loader {
            var state: Fetch = .idle
            func load() async {
                state = .busy
                await withTaskCancellationHandler {
                    await Task.yield()
                } onCancel: {
                    state = .aborted
                }
            }
            func reset() { state = .idle }
        }
        """)
        XCTAssertEqual(try a.machine("Gate.state").edge("a", "toB()", "b")?.guardText, "state == .a && admin")
        XCTAssertEqual(try XCTUnwrap(a.machines.first { $0.name.hasPrefix("Leg") }).moves,
                       ["start -*-> mid", "start -*-> done", "mid -*-> start", "mid -*-> done"])
        XCTAssertTrue(try a.machine("edit().mode").moves.contains("normal -edit() on keys-> insert"))
        let loader = try a.machine("Loader.state")
        let onCancel = try XCTUnwrap(loader.inputs.first { $0.hasSuffix(" onCancel") }, "\(loader.inputs)")
        XCTAssertEqual(loader.edges.filter { $0.input == onCancel && !$0.noop }.map { "\($0.from) -> \($0.to)" }, ["busy -> aborted"])
    }

    /// A case carrying a case of another enum that several methods change (`.live(.buffering)`, then
    /// `.live(.playing)`) is one state: a note says its changes are drawn as no change. One method
    /// choosing between modes (`.dial(.fast)` or `.dial(.slow)`) is data, no note.
    func testANestedStateIsSaidToBeDrawnAsOne() throws {
        let a = Analysed.source("""
        final class Radio {
            enum Band { case tuning, locked }
            enum Mode { case fast, slow }
            enum State { case off, on(Band), dial(Mode) }
            private(set) var state: State = .off
            func power() { if case .off = state { state = .on(.tuning) } }
            func lock() { if case .on(.tuning) = state { state = .on(.locked) } }
            func shut() { if case .on = state { state = .off } }
            func spin(quick: Bool) {
                guard case .off = state else { return }
                if quick { state = .dial(.fast) } else { state = .dial(.slow) }
            }
        }
        """)
        XCTAssertNotNil(try? a.machine("Radio.state"))
        let notes = a.diagnosticLines.filter { $0.contains("carries a case of another enum") }
        XCTAssertEqual(notes.count, 1, "\(a.diagnosticLines)")
        XCTAssertTrue(notes.first?.contains("'on'") == true, "\(notes)")
    }

    /// A Combine sink's completion comes after its values: from the states they lead to as well
    /// (`streaming -start() sink completion-> finished`, not only from `loading`).
    func testASinksCompletionComesAfterItsValues() throws {
        let a = Analysed.source("""
        import Combine
        final class Feed {
            enum State { case idle, loading, streaming, finished, failed }
            private(set) var state: State = .idle
            private var bag: AnyCancellable?
            func start(_ lines: AnyPublisher<String, Error>) {
                guard case .idle = state else { return }
                state = .loading
                bag = lines.sink(
                    receiveCompletion: { [weak self] done in
                        switch done {
                        case .finished: self?.state = .finished
                        case .failure: self?.state = .failed
                        }
                    },
                    receiveValue: { [weak self] _ in self?.state = .streaming })
            }
            func stop() { bag = nil; state = .idle }
        }
        """)
        let feed = try a.machine("Feed.state")
        XCTAssertNotNil(feed.edge("loading", "start() sink", "streaming"))
        XCTAssertNotNil(feed.edge("streaming", "start() sink completion", "finished"))
        XCTAssertNotNil(feed.edge("loading", "start() sink completion", "failed"))
    }
}
