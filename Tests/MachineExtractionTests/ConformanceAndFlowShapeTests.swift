import MachineModel
import XCTest

/// Shapes where Swift's conformance rules decide a type's methods (a protocol extension's defaults),
/// and flows written outside the catalogue's spelling. Made-up identifiers.
final class ConformanceAndFlowShapeTests: XCTestCase {
    /// A protocol extension's default methods writing the state through a `{ get set }` requirement are
    /// the conforming type's methods, unless it implements its own (Swift calls the type's); a protocol
    /// the first refines gives its defaults too.
    func testAProtocolExtensionsDefaultsAreTheConformersMethods() throws {
        let a = Analysed.source([
            "Contract.swift": """
            enum Gear { case parked, rolling, braking }
            protocol Steerable: AnyObject { var gear: Gear { get set } }
            protocol Drivable: Steerable {}
            extension Steerable {
                func brake() { if gear == .rolling { gear = .braking } }
            }
            extension Drivable {
                func roll() { guard gear == .parked else { return }; gear = .rolling }
                func park() { gear = .braking }
            }
            """,
            "Cart.swift": """
            final class Cart: Drivable {
                var gear: Gear = .parked
                func park() { if gear == .braking { gear = .parked } }
            }
            """,
        ])
        let cart = try a.machine("Cart.gear")
        XCTAssertEqual(cart.moves, ["parked -roll()-> rolling", "rolling -brake()-> braking", "braking -park()-> parked"])
        XCTAssertTrue(cart.findings.isEmpty, "\(cart.findingSet)")
    }

    /// A reducer returning a copy of its state also returns the state unchanged on early paths (`guard …
    /// else { return state }`, Elm's `return (model, nil)`), and may test before it copies.
    func testACopyReducerMayReturnItsStateUnchanged() throws {
        let a = Analysed.source("""
        enum Dial { case low, mid, high }
        struct Knob { var dial: Dial = .low; var ticks = 0 }
        enum Twist { case up, down, tick }
        func turn(knob: Knob, twist: Twist) -> Knob {
            if case .tick = twist, knob.dial == .high { return knob }
            var next = knob
            switch twist {
            case .up:
                guard knob.dial != .high else { return knob }
                next.dial = knob.dial == .low ? .mid : .high
            case .down:
                next.dial = .low
            case .tick:
                next.ticks += 1
            }
            return next
        }
        """)
        let knob = try a.machine("Knob.dial")
        XCTAssertEqual(knob.moves, ["low -up-> mid", "mid -up-> high", "mid -down-> low", "high -down-> low"])
    }

    /// ReSwift: a reducer telling action types apart with `if let a = action as? T { … } else if action
    /// is U`, or two `if`s, is no cast to one action enum at the top.
    func testAReducerTellingActionTypesApartByCasts() throws {
        let a = Analysed.source("""
        import ReSwift
        enum Shade { case plain, tinted, dark }
        struct GlassState: StateType { var shade: Shade = .plain; var wet = false }
        struct Tint: Action { let deep: Bool }
        struct Wipe: Action {}
        struct Darken: Action {}
        func glassReducer(action: Action, state: GlassState?) -> GlassState {
            var state = state ?? GlassState()
            if let tint = action as? Tint {
                state.shade = tint.deep ? .dark : .tinted
            } else if action is Wipe {
                state.shade = .plain
            }
            if action is Darken { state.shade = .dark }
            return state
        }
        """)
        let glass = try a.machine("GlassState.shade")
        XCTAssertEqual(Set(glass.inputs), ["Tint", "Wipe", "Darken"])
        XCTAssertTrue(glass.moves.isSuperset(of: ["plain -Tint-> tinted", "plain -Tint-> dark", "dark -Wipe-> plain", "plain -Darken-> dark"]),
                      "\(glass.moves)")
    }

    /// ReSwift: an enum state comes optional and is defaulted first (`let state = state ?? .home`), its
    /// action a protocol cast to an enum at the top or a plain enum: the local is the state, the default
    /// its start.
    func testAnOptionalEnumStateDefaultedByALocalOfItsName() throws {
        let a = Analysed.source("""
        import ReSwift
        enum Tab: Equatable { case feed, post, profile }
        enum TabAction: Action { case compose, showProfile, back }
        func tabReducer(action: Action, state: Tab?) -> Tab {
            var state = state ?? .feed
            guard let tab = action as? TabAction else { return state }
            switch tab {
            case .compose: if state == .feed { state = .post }
            case .showProfile: if state == .feed { state = .profile }
            case .back: state = .feed
            }
            return state
        }
        enum Lid { case shut, ajar, open }
        enum Push { case nudge, fling, slam }
        func lidReducer(push: Push, lid: Lid?) -> Lid {
            let lid = lid ?? .shut
            switch (lid, push) {
            case (.shut, .nudge): return .ajar
            case (.ajar, .fling), (.shut, .fling): return .open
            case (_, .slam): return .shut
            default: return lid
            }
        }
        """)
        let tab = try a.machine("tabReducer")
        XCTAssertEqual(tab.initial, "feed")
        XCTAssertEqual(tab.moves, ["feed -compose-> post", "feed -showProfile-> profile", "post -back-> feed", "profile -back-> feed"])
        let lid = try a.machine("lidReducer")
        XCTAssertEqual(lid.initial, "shut")
        XCTAssertEqual(lid.moves, ["shut -nudge-> ajar", "ajar -fling-> open", "shut -fling-> open", "ajar -slam-> shut", "open -slam-> shut"])
        XCTAssertTrue(lid.findings.isEmpty && tab.findings.isEmpty, "\(lid.findingSet) \(tab.findingSet)")
    }

    /// State tested and written only inside closures that run at once (`lock.withLock { … }`,
    /// `queue.sync(flags: .barrier) { … }`), or handed to a serial queue the type keeps (`queue.async {
    /// … }`: later, in order, each method's work an input of its own).
    func testStateGuardedByALockOrAQueue() throws {
        let a = Analysed.source("""
        import Foundation
        final class Vault {
            enum Door { case shut, opening, open }
            private let lock = NSLock()
            private var door: Door = .shut
            func unlock() { lock.withLock { guard door == .shut else { return }; door = .opening } }
            func swing() { lock.withLock { if door == .opening { door = .open } } }
            func slam() { lock.withLock { door = .shut } }
        }
        final class Spooler {
            enum Spool { case idle, printing, jammed }
            private let queue = DispatchQueue(label: "spooler")
            private var state: Spool = .idle
            func print() { queue.async { if self.state == .idle { self.state = .printing } } }
            func jam() { queue.async { guard self.state == .printing else { return }; self.state = .jammed } }
            func clear() { queue.sync(flags: .barrier) { state = .idle } }
        }
        """)
        let vault = try a.machine("Vault.door")
        XCTAssertEqual(vault.moves, ["shut -unlock()-> opening", "opening -swing()-> open", "opening -slam()-> shut", "open -slam()-> shut"])
        let spooler = try a.machine("Spooler.state")
        XCTAssertEqual(spooler.moves, ["idle -print() task-> printing", "printing -jam() task-> jammed",
                                       "printing -clear()-> idle", "jammed -clear()-> idle"])
    }

    /// SwiftUI: a model taken from the environment by its type alone (`@Environment(Model.self) private
    /// var model`), its state set by a button (named by its title, from the states the view shows it in);
    /// a child view's callback closure setting the state inside `withAnimation`; an optional
    /// state set to a case with a literal payload (`.settings(tab: .general)`).
    func testViewsEnvironmentModelsAnimatedCallbacksAndPayloadCases() throws {
        let a = Analysed.source("""
        import SwiftUI
        import Observation
        @Observable final class Round {
            enum Stage { case waiting, racing, finished }
            var stage: Stage = .waiting
            func go() { if stage == .waiting { stage = .racing } }
            func cross() { if stage == .racing { stage = .finished } }
        }
        struct FinishLine: View {
            @Environment(Round.self) private var round
            var body: some View {
                if round.stage == .finished { Button("Again") { round.stage = .waiting } }
            }
        }
        struct StartPage: View { var onGo: () -> Void; var body: some View { Text("go") } }
        struct Wizard: View {
            enum Page { case start, done }
            @State private var page: Page = .start
            var body: some View {
                StartPage(onGo: { withAnimation { page = .done } })
            }
        }
        struct Shelf: View {
            enum Drawer: Hashable, Identifiable { case tools(kind: Int), notes(title: String); var id: Self { self } }
            @State private var drawer: Drawer?
            var body: some View {
                Button("Tools") { drawer = .tools(kind: 2) }
                    .sheet(item: $drawer) { _ in Text("x") }
                Button("Notes") { drawer = .notes(title: "a") }
            }
        }
        """)
        let round = try a.machine("Round.stage")
        XCTAssertTrue(round.moves.contains("finished -FinishLine.Again-> waiting"), "\(round.moves)")
        XCTAssertFalse(round.moves.contains("racing -FinishLine.Again-> waiting"), "the button shows only when finished")
        XCTAssertFalse(round.findingSet.contains("dead_end_state finished"), "\(round.findingSet)")
        XCTAssertEqual(try a.machine("Wizard.page").moves, ["start -StartPage.onGo-> done"])
        let shelf = try a.machine("Shelf.drawer")
        XCTAssertTrue(shelf.moves.isSuperset(of: ["nil -Tools-> tools", "nil -Notes-> notes"]), "\(shelf.moves)")
    }

    /// A mutating method of the state's enum called for its result, handed on (`perform(state.start())`),
    /// changes the state; a protocol's default calling one on the state (`self.state.open()`) is the
    /// conformer's, one that only forwards to another method is not an input of its own; an optional
    /// state starting as `.none` starts as `nil`.
    func testEnumStepsHandedOnDefaultsCallingThemAndANoneStart() throws {
        let a = Analysed.source("""
        enum Valve {
            case shut, open, stuck
            enum Action { case none, vent }
            mutating func open() -> Action {
                guard case .shut = self else { return .none }
                self = .open
                return .vent
            }
            mutating func jam() -> Action {
                switch self {
                case .open: self = .stuck; return .none
                case .shut, .stuck: return .none
                }
            }
        }
        protocol Piped: AnyObject { var valve: Valve { get set } }
        extension Piped {
            func openValve() { handle(self.valve.open()) }
            func openAll() { openValve() }
            func handle(_ action: Valve.Action) { if case .vent = action { print("vent") } }
        }
        final class Boiler: Piped {
            var valve: Valve = .shut
            func overheat() { handle(valve.jam()) }
        }
        enum Lens { case wide, tele }
        final class Camera {
            var lens: Lens? = .none
            func mount() { if lens == nil { lens = .wide } }
            func zoom() { if lens == .wide { lens = .tele } }
            func unmount() { lens = nil }
        }
        """)
        let boiler = try a.machine("Boiler.valve")
        XCTAssertEqual(boiler.moves, ["shut -openValve()-> open", "open -overheat()-> stuck"])
        XCTAssertEqual(Set(boiler.inputs), ["openValve()", "overheat()"])
        let camera = try a.machine("Camera.lens")
        XCTAssertEqual(camera.initial, "nil")
    }

    /// A view model whose state is a struct and whose `send(_:)` takes an action: the work it starts
    /// (`Task { … }`, a `sink`) writes the fields later, an input of its own.
    func testAStructStoreFollowsTheWorkItStarts() throws {
        let a = Analysed.source("""
        import Combine
        @MainActor
        final class InboxModel: ObservableObject {
            enum Fill { case blank, filled, broken }
            struct Screen { var fill: Fill = .blank; var busy = false; var mails: [String] = [] }
            enum Intent { case pull, acknowledge }
            @Published private(set) var screen = Screen()
            private let fetch: () async throws -> [String]
            init(fetch: @escaping () async throws -> [String]) { self.fetch = fetch }
            func send(_ intent: Intent) {
                switch intent {
                case .pull:
                    guard !screen.busy else { return }
                    screen.busy = true
                    Task {
                        do {
                            let mails = try await fetch()
                            screen.fill = mails.isEmpty ? .blank : .filled
                        } catch {
                            screen.fill = .broken
                        }
                        screen.busy = false
                    }
                case .acknowledge:
                    if screen.fill == .broken { screen.fill = .blank }
                }
            }
        }
        """)
        let fill = try a.machine("InboxModel.fill")
        XCTAssertTrue(fill.moves.isSuperset(of: ["blank -pull task-> filled", "blank -pull task-> broken", "broken -acknowledge-> blank"]),
                      "\(fill.moves)")
        XCTAssertFalse(fill.findings.contains { $0.check == "unreachable_state" }, "\(fill.findingSet)")
        let busy = try a.machine("InboxModel.busy")
        XCTAssertEqual(busy.moves, ["false -pull-> true", "true -pull task-> false"])
    }

    /// A decoder changed by one method given data (`mutating func feed(_ byte: UInt8)`), whose `switch`
    /// over its state steps it from each state to the next, is a machine; one method merging another
    /// value of its kind (`mutating func raise(to: Level)`) is not.
    func testADecoderSteppedByOneMethod() throws {
        let a = Analysed.source("""
        struct LineFramer {
            enum State { case text, carriage, escape }
            var state: State = .text
            var line: [UInt8] = []
            mutating func feed(_ byte: UInt8) -> [UInt8]? {
                switch state {
                case .text:
                    if byte == 13 { state = .carriage } else if byte == 92 { state = .escape } else { line.append(byte) }
                    return nil
                case .carriage:
                    state = .text
                    defer { line = [] }
                    return line
                case .escape:
                    line.append(byte)
                    state = .text
                    return nil
                }
            }
        }
        struct Clearance {
            enum Level { case open, guarded, sealed }
            var level: Level = .open
            mutating func raise(to other: Clearance) {
                switch other.level {
                case .open: break
                case .guarded: if case .open = level { level = .guarded }
                case .sealed: level = .sealed
                }
            }
        }
        """)
        let framer = try a.machine("LineFramer.state")
        XCTAssertEqual(framer.moves, ["text -feed()-> carriage", "text -feed()-> escape", "carriage -feed()-> text", "escape -feed()-> text"])
        XCTAssertFalse(a.machines.contains { $0.name == "Clearance.level" })
    }

    /// A `scan` whose closure writes its parameters' types is a mapping of its seed (the initial state),
    /// named by what it is assigned to; a library's `reduce:` closure with written types is a reducer.
    func testScanAndLoopClosuresWithWrittenTypes() throws {
        let a = Analysed.source("""
        import RxSwift
        import CombineFeedback
        enum Beam { case off, low, high }
        enum Flick { case tap, hold }
        final class Torch {
            let beam: Observable<Beam>
            init(flicks: Observable<Flick>) {
                beam = flicks.scan(Beam.off) { (current: Beam, flick: Flick) -> Beam in
                    switch flick {
                    case .tap:
                        switch current {
                        case .off: return .low
                        case .low: return .high
                        case .high: return .off
                        }
                    case .hold: return .off
                    }
                }
            }
        }
        enum Seal: Equatable { case open, pending, sealed }
        struct Envelope {
            struct State { var seal: Seal = .open; var stamps = 0 }
            enum Event { case lick, press, tear, stamp }
            static func loop() -> Loop<State, Event> {
                Loop(initial: State(), reduce: { (state: inout State, event: Event) in
                    switch event {
                    case .lick: if state.seal == .open { state.seal = .pending }
                    case .press: if state.seal == .pending { state.seal = .sealed }
                    case .tear: state = State()
                    case .stamp: state.stamps += 1
                    }
                }, feedbacks: [])
            }
        }
        """)
        let torch = try a.machine("beam")
        XCTAssertEqual(torch.initial, "off")
        XCTAssertEqual(torch.moves, ["off -tap-> low", "low -tap-> high", "high -tap-> off", "low -hold-> off", "high -hold-> off"])
        let envelope = try a.machine("Envelope.seal")
        XCTAssertEqual(envelope.initial, "open")
        XCTAssertEqual(envelope.moves, ["open -lick-> pending", "pending -press-> sealed", "pending -tear-> open", "sealed -tear-> open"])
    }

    /// A lock's accessor running the state's own method as a condition (`if state.withLock({ $0.pause() })`,
    /// `guard … else`): the method's move is made, and what it returns decides the branch.
    func testALockedStepAsACondition() throws {
        let a = Analysed.source("""
        import Synchronization
        enum Tap {
            case idle, flowing, held
            mutating func open() { if case .idle = self { self = .flowing } }
            mutating func hold() -> Bool {
                guard case .flowing = self else { return false }
                self = .held
                return true
            }
            mutating func shut() { self = .idle }
        }
        final class Faucet: Sendable {
            let state = Mutex(Tap.idle)
            func open() { state.withLock { $0.open() } }
            func hold() { if state.withLock({ $0.hold() }) { print("held") } }
            func shut() {
                guard state.withLock({ $0.hold() }) else { state.withLock { $0.shut() }; return }
            }
        }
        """)
        let faucet = try a.machine("Faucet.state")
        XCTAssertTrue(faucet.moves.isSuperset(of: ["idle -open()-> flowing", "flowing -hold()-> held", "flowing -shut()-> held", "held -shut()-> idle"]),
                      "\(faucet.moves)")
        XCTAssertFalse(faucet.findings.contains { $0.check == "unreachable_state" }, "\(faucet.findingSet)")
    }

    /// A step by raw value clamped to a bound (`min(level.rawValue + 1, Notch.allCases.count - 1)`, `max(… - 1,
    /// 0)`): the last case stays.
    func testAClampedRawValueStep() throws {
        let a = Analysed.source("""
        enum Notch: Int, CaseIterable { case zero, one, two }
        final class Fan {
            var step: Notch = .zero
            func faster() { step = Notch(rawValue: min(step.rawValue + 1, Notch.allCases.count - 1))! }
            func slower() { step = Notch(rawValue: max(step.rawValue - 1, 0)) ?? .zero }
        }
        """)
        let fan = try a.machine("Fan.step")
        XCTAssertEqual(fan.moves, ["zero -faster()-> one", "one -faster()-> two", "two -slower()-> one", "one -slower()-> zero"])
        XCTAssertTrue(fan.allEdges.isSuperset(of: ["two -faster()-> two", "zero -slower()-> zero"]))
    }

    /// ReactorKit: the state a reactor starts in is built by its memberwise initializer (`initialState =
    /// State(phase: .idle, seconds: 0)`, in `init` or as a constant): the field starts as given.
    func testAReactorsInitialStateBuiltByItsMemberwiseInitializer() throws {
        let a = Analysed.source("""
        import ReactorKit
        final class KilnReactor: Reactor {
            enum Heat: Equatable { case cold, warming, hot }
            enum Action { case fire, douse }
            enum Mutation { case warm, peak, cool }
            struct State { var heat: Heat; var minutes: Int }
            let initialState: State
            init() { initialState = State(heat: .cold, minutes: 0) }
            func mutate(action: Action) -> Observable<Mutation> {
                switch action {
                case .fire: return .just(.warm)
                case .douse: return .just(.cool)
                }
            }
            func reduce(state: State, mutation: Mutation) -> State {
                var state = state
                switch mutation {
                case .warm: if state.heat == .cold { state.heat = .warming }
                case .peak: if state.heat == .warming { state.heat = .hot }
                case .cool: state.heat = .cold
                }
                return state
            }
        }
        """)
        XCTAssertEqual(try a.machine("KilnReactor.heat").initial, "cold")
    }

    /// A `switch` over the state and a value read each turn (`switch (state, scalar)`): what a case asks
    /// of the value is the edge's guard (`scalar ~ "\""`), so the edges out of a state tell apart.
    func testATupleSwitchKeepsWhatItAsksOfTheData() throws {
        let a = Analysed.source("""
        struct Quoter {
            enum Mode { case plain, quoted }
            func words(in text: String) -> Int {
                var mode = Mode.plain
                var count = 0
                for scalar in text.unicodeScalars {
                    switch (mode, scalar) {
                    case (.plain, "\\""): mode = .quoted
                    case (.quoted, "\\""): mode = .plain; count += 1
                    case (.plain, " "), (.plain, "\\t"): count += 1
                    case (_, _): break
                    }
                }
                return count
            }
        }
        """)
        let quoter = try a.machine("Quoter.words().mode")
        let guards = Set(quoter.rules.flatMap { $0.outcomes.compactMap(\.guardText) })
        XCTAssertTrue(guards.isSuperset(of: [#"scalar ~ "\"""#, #"scalar ~ " " || scalar ~ "\t""#]), "\(guards)")
    }

    /// An optional of an enum with its own case `none`: `.none` is the optional's (`nil`, as Swift reads
    /// it), `Dial.none` the case.
    func testAnOptionalOfAnEnumWithItsOwnNone() throws {
        let a = Analysed.source("""
        enum Dial { case none, low, high }
        final class Heater {
            var dial: Dial? = .none
            func start() { if dial == nil { dial = .low } }
            func boost() { if dial == .low { dial = .high } }
            func idle() { guard dial != nil else { return }; dial = Dial.none }
            func unplug() { dial = .none }
        }
        """)
        let heater = try a.machine("Heater.dial")
        XCTAssertEqual(heater.initial, "nil")
        XCTAssertTrue(heater.moves.isSuperset(of: ["nil -start()-> low", "low -boost()-> high", "high -idle()-> none", "none -unplug()-> nil"]),
                      "\(heater.moves)")
        XCTAssertFalse(heater.moves.contains("high -idle()-> nil"))
    }

    /// A local variable a loop tests with `if`/`guard` (no `switch`) and assigns cases is a machine of
    /// the loop too; not one the function returns, a value it computes (the worst grade seen).
    func testALocalMachineTestedByIfAndGuard() throws {
        let a = Analysed.source("""
        enum Block { case prose, fence }
        struct FenceCounter {
            func count(_ text: String) -> Int {
                var block = Block.prose
                var fences = 0
                for line in text.split(separator: "\\n") {
                    if line.hasPrefix("```") {
                        if block == .prose { block = .fence; fences += 1 } else { block = .prose }
                        continue
                    }
                    guard block == .prose else { continue }
                }
                return fences
            }
        }
        enum Grade { case fine, poor, bad }
        struct Inspector {
            func worst(of notes: [String]) -> Grade {
                var worst = Grade.fine
                for note in notes {
                    if note.hasPrefix("bad") { worst = .bad } else if note.hasPrefix("poor") && worst == .fine { worst = .poor }
                }
                return worst
            }
        }
        """)
        let counter = try a.machine("FenceCounter.count().block")
        XCTAssertEqual(counter.moves, ["prose -count() on split()-> fence", "fence -count() on split()-> prose"])
        XCTAssertFalse(a.machines.contains { $0.name.hasPrefix("Inspector") }, "a value the function computes and returns")
    }

    /// A local machine whose loop takes its events from an iterator (`while let token = iterator.next()`
    /// with `var iterator = tokens.makeIterator()` over `[Token]`): one input per case, as a `for` loop.
    func testALocalMachineOverAnIterator() throws {
        let a = Analysed.source("""
        enum Piece { case open, close, text(String) }
        struct Nester {
            func depthOK(_ pieces: [Piece]) -> Bool {
                enum Level { case outside, inside }
                var level = Level.outside
                var iterator = pieces.makeIterator()
                while let piece = iterator.next() {
                    switch (level, piece) {
                    case (.outside, .open): level = .inside
                    case (.inside, .close): level = .outside
                    case (.outside, .close), (.inside, .open): return false
                    case (_, .text): continue
                    }
                }
                return level == .outside
            }
        }
        """)
        let nester = try a.machine("Nester.depthOK().level")
        XCTAssertEqual(Set(nester.inputs), ["open", "close", "text"])
        XCTAssertEqual(nester.moves, ["outside -open-> inside", "inside -close-> outside"])
    }
}
