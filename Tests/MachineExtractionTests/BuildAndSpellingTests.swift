import MachineModel
import XCTest

/// Shapes found in probes of session 42: cases compiled in some builds only; states started by raw value,
/// by place in `allCases` or through a backticked alias; folders of one app; state objects whose every
/// path writes. Made-up identifiers.
final class BuildAndSpellingTests: XCTestCase {
    /// A `case` under `#if DEBUG` is there in debug builds only: the `default` after it still takes its
    /// pairs in other builds (no `shadowed_rule`), and the `#else` clause's case is read too, each edge
    /// guarded by its build condition.
    func testSwitchCasesUnderIfConfigAreConditional() throws {
        let a = Analysed.source("""
        enum Lamp { case off, dim, bright, broken }
        enum Knob { case turn, debug }
        final class Desk {
            var lamp: Lamp = .off
            func handle(_ k: Knob) {
                switch (lamp, k) {
                case (.off, .turn): lamp = .dim
                case (.dim, .turn): lamp = .bright
                case (.bright, .turn): lamp = .off
                #if DEBUG
                case (_, .debug): lamp = .off
                #else
                case (.bright, .debug): lamp = .broken
                #endif
                default: break
                }
            }
        }
        """)
        let m = try a.machine("Desk.lamp")
        XCTAssertEqual(m.moves, ["off -turn-> dim", "dim -turn-> bright", "bright -turn-> off", "dim -debug-> off",
                                 "bright -debug-> off", "broken -debug-> off", "bright -debug-> broken"])
        XCTAssertEqual(m.findingSet.filter { $0.hasPrefix("shadowed_rule") || $0.hasPrefix("unreachable_state") }, [])
        let guards = Set(m.edges.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText })
        XCTAssertTrue(guards.contains("#if DEBUG") && guards.contains("#if !(DEBUG)"), "\(guards)")
        // (`(bright, debug)` is taken in every build, by one clause or the other: the `default` never has it)
        XCTAssertFalse(m.allEdges.contains("bright -debug-> bright"))
    }

    /// A start written as a raw value (`Tier(rawValue: "basic")!`, `.init(rawValue: 2)!`, an `Int` raw value
    /// kept for a computed state), a place in `allCases` or a backticked static alias is a start; a property
    /// with no written type started so is a machine too.
    func testStartsByRawValuePlaceInAllCasesAndBacktickedAlias() throws {
        let a = Analysed.source("""
        enum Tier: String { case free = "basic", pro }
        enum Page: Int, CaseIterable { case cover = 1, toc, body }
        enum Lap: CaseIterable { case warmup, race, cooldown }
        enum Grade: Int { case open = 10, closed = 20 }
        enum Speed { case off, low, high; static let `standard`: Speed = .low }
        final class Plan {
            var tier: Tier = Tier(rawValue: "basic")!
            func upgrade() { if tier == .free { tier = .pro } }
            func lapse() { if tier == .pro { tier = .free } }
        }
        final class Book {
            var page: Page = .init(rawValue: 2)!
            func open() { if page != .body { page = Page.allCases.last! } }
            func close() { if page != .cover { page = .cover } }
        }
        final class Track {
            var lap = Lap.allCases[0]
            func advance() {
                switch lap {
                case .warmup: lap = .race
                case .race: lap = .cooldown
                case .cooldown: break
                }
            }
            func restart() { lap = Lap.allCases.first! }
        }
        final class Ticket {
            var gradeRaw: Int = 20
            var grade: Grade {
                get { Grade(rawValue: gradeRaw) ?? .open }
                set { gradeRaw = newValue.rawValue }
            }
            func reopen() { if grade == .closed { grade = .open } }
            func close() { if grade == .open { grade = .closed } }
        }
        final class Fan {
            var speed: Speed = .standard
            func up() { if speed == .low { speed = .high } }
            func off() { speed = .off }
            func reset() { speed = Speed.standard }
        }
        """)
        XCTAssertEqual(try a.machine("Plan.tier").initial, "free")
        XCTAssertEqual(try a.machine("Book.page").initial, "toc")
        let track = try a.machine("Track.lap")
        XCTAssertEqual(track.initial, "warmup")
        XCTAssertEqual(track.moves, ["warmup -advance()-> race", "race -advance()-> cooldown", "race -restart()-> warmup", "cooldown -restart()-> warmup"])
        XCTAssertEqual(try a.machine("Ticket.grade").initial, "closed")
        let fan = try a.machine("Fan.speed")
        XCTAssertEqual(fan.initial, "low")
        XCTAssertTrue(fan.moves.isSuperset(of: ["high -reset()-> low", "off -reset()-> low"]), "\(fan.moves)")
    }

    /// A folder given with `Models/` and `ViewModels/` subfolders, no manifest nor project: the folders of
    /// one app, which see each other (none imports another), not modules that would hide the state's enum.
    func testFoldersOfOneAppSeeEachOther() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["Models", "ViewModels"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try "enum Hatch { case shut, opening, open }\n".write(to: dir.appendingPathComponent("Models/Hatch.swift"), atomically: true, encoding: .utf8)
        try """
        final class HatchModel {
            private(set) var hatch: Hatch = .shut
            func press() {
                switch hatch {
                case .shut: hatch = .opening
                case .opening: hatch = .open
                case .open: hatch = .shut
                }
            }
        }
        """.write(to: dir.appendingPathComponent("ViewModels/HatchModel.swift"), atomically: true, encoding: .utf8)
        let a = Analysed(paths: [dir.path])
        let m = try a.machine("HatchModel.hatch")
        XCTAssertEqual(m.moves, ["shut -press()-> opening", "opening -press()-> open", "open -press()-> shut"])
        XCTAssertEqual(m.id, "ViewModels/HatchModel.hatch")
    }

    /// A state object's method whose every path sets the holder's state (`if … { g.state = A() } else {
    /// g.state = B() }`, `guard … else { g.state = B(); return }; g.state = A()`): no stay beside them.
    func testAStateObjectWritingOnEveryPathDoesNotStay() throws {
        let a = Analysed.source("""
        protocol LockStage {
            func key(_ lock: Padlock)
            func pry(_ lock: Padlock)
        }
        final class Padlock {
            var tries = 0
            var stage: LockStage = ShutStage()
        }
        struct ShutStage: LockStage {
            func key(_ lock: Padlock) {
                lock.tries += 1
                if lock.tries < 3 {
                    lock.stage = OpenStage()
                } else {
                    lock.stage = JammedStage()
                }
            }
            func pry(_ lock: Padlock) {
                guard lock.tries == 0 else { lock.stage = JammedStage(); return }
                lock.stage = OpenStage()
            }
        }
        struct OpenStage: LockStage {
            func key(_ lock: Padlock) { lock.stage = ShutStage() }
            func pry(_ lock: Padlock) {}
        }
        struct JammedStage: LockStage {
            func key(_ lock: Padlock) {}
            func pry(_ lock: Padlock) {}
        }
        """)
        let m = try a.machine("Padlock.stage")
        XCTAssertEqual(Set(m.allEdges.filter { $0.hasPrefix("ShutStage") }), ["ShutStage -key-> OpenStage", "ShutStage -key-> JammedStage",
                                                                         "ShutStage -pry-> OpenStage", "ShutStage -pry-> JammedStage"])
    }

    /// Two extensions in two files, each with its own `private func settle()`: a callback's
    /// `self?.settle()` (a tree the tool rebuilds, for its `?`) calls its own file's.
    func testAPrivateHelperCalledThroughOptionalSelfIsItsFilesOwn() throws {
        let a = Analysed.source([
            "Winch.swift": """
            enum WinchMode { case off, priming, running, draining }
            final class Clutch { func open(_ done: @escaping () -> Void) { done() } }
            final class Winch {
                private(set) var mode: WinchMode = .off
                let clutch = Clutch()
            }
            """,
            "Winch+Start.swift": """
            extension Winch {
                func start() {
                    guard mode == .off else { return }
                    mode = .priming
                    clutch.open { [weak self] in self?.settle() }
                }
                private func settle() { mode = .running }
            }
            """,
            "Winch+Stop.swift": """
            extension Winch {
                func stop() {
                    guard mode == .running else { return }
                    mode = .draining
                    clutch.open { [weak self] in self?.settle() }
                }
                private func settle() { mode = .off }
            }
            """,
        ])
        let m = try a.machine("Winch.mode")
        XCTAssertEqual(m.moves, ["off -start()-> priming", "priming -start() callback-> running", "running -stop()-> draining",
                                 "draining -stop() callback-> off"])
    }

    /// The textbook GoF layout: a protocol, an abstract base class conforming to it (keeping the context),
    /// and the states subclassing the base, moving through the holder's `transitionTo(stage:)`; the holder
    /// starts where its initializer is told, said with a note.
    func testGoFStatesSubclassingAnAbstractBase() throws {
        let a = Analysed.source("""
        protocol Phase: AnyObject {
            func update(context: Kiosk)
            func tapA()
            func tapB()
        }
        class BasePhase: Phase {
            private(set) weak var context: Kiosk?
            func update(context: Kiosk) { self.context = context }
            func tapA() {}
            func tapB() {}
        }
        final class Kiosk {
            private var phase: Phase
            init(_ phase: Phase) {
                self.phase = phase
                transitionTo(phase: phase)
            }
            func transitionTo(phase: Phase) {
                self.phase = phase
                self.phase.update(context: self)
            }
            func pressA() { phase.tapA() }
            func pressB() { phase.tapB() }
        }
        final class WelcomePhase: BasePhase {
            override func tapA() { context?.transitionTo(phase: MenuPhase()) }
        }
        final class MenuPhase: BasePhase {
            override func tapB() { context?.transitionTo(phase: WelcomePhase()) }
        }
        """)
        let m = try a.machine("Kiosk.phase")
        XCTAssertEqual(Set(m.states), ["WelcomePhase", "MenuPhase"])
        XCTAssertEqual(m.moves, ["WelcomePhase -tapA-> MenuPhase", "MenuPhase -tapB-> WelcomePhase"])
        XCTAssertTrue(a.diagnosticLines.contains { $0.contains("Kiosk.phase starts as init(_:) is given") }, "\(a.diagnosticLines)")
    }

    /// Comparisons of the state's `Int` raw value with a case's or a number are decided per state.
    func testRawValueComparisonsDecidedPerState() throws {
        let a = Analysed.source("""
        enum Leg: Int { case intro, consent, details, finished }
        final class Signup {
            private(set) var leg: Leg = .intro
            func next() {
                guard leg.rawValue < Leg.details.rawValue, let following = Leg(rawValue: leg.rawValue + 1) else { return }
                leg = following
            }
            func submit() { if leg.rawValue == 2 { leg = .finished } }
        }
        """)
        let m = try a.machine("Signup.leg")
        XCTAssertEqual(m.moves, ["intro -next()-> consent", "consent -next()-> details", "details -submit()-> finished"])
    }

    /// `allCases.randomElement()!` is any case; `Optional(.x)` given to an optional state is `x`.
    func testARandomCaseAndAnOptionalWrappingACase() throws {
        let a = Analysed.source("""
        enum Pip: CaseIterable { case low, mid, high }
        final class Spinner {
            private(set) var state: Pip = .low
            func spin() { if state != .high { state = Pip.allCases.randomElement()! } }
            func top() { state = .high }
        }
        enum Reel { case loaded, playing }
        final class Projector {
            private(set) var reel: Reel?
            func load() { if reel == nil { reel = .loaded } }
            func play() { if reel == .loaded { reel = Optional(.playing) } }
            func eject() { reel = nil }
        }
        """)
        XCTAssertTrue(try a.machine("Spinner.state").moves.isSuperset(of: ["low -spin()-> mid", "low -spin()-> high", "mid -spin()-> low"]))
        XCTAssertTrue(try a.machine("Projector.reel").moves.contains("loaded -play()-> playing"))
    }

    /// A property of a `Loadable<T>` enum under a data name (`articles`), written through a private
    /// `transition(to:)`, is a machine as one named as a state is.
    func testALoadablePropertyUnderADataName() throws {
        let a = Analysed.source("""
        enum Loadable<V> { case idle, loading, loaded(V), failed(Error) }
        final class Shelf {
            private(set) var books: Loadable<[Int]> = .idle
            func refresh() async {
                if case .loading = books { return }
                transition(to: .loading)
                do {
                    let list = try await fetch()
                    transition(to: .loaded(list))
                } catch {
                    transition(to: .failed(error))
                }
            }
            private func fetch() async throws -> [Int] { [] }
            private func transition(to next: Loadable<[Int]>) { books = next }
        }
        """)
        let m = try a.machine("Shelf.books")
        XCTAssertTrue(m.moves.isSuperset(of: ["idle -refresh()-> loading", "loading -refresh() after fetch()-> loaded"]), "\(m.moves)")
    }

    /// A subclass starting the state its generic base class holds through `super.init(initial: .editing)`,
    /// the base's initializer setting the state to that parameter: `editing` is the start.
    func testAStartHandedToTheSuperclassInitializer() throws {
        let a = Analysed.source("""
        class Screen<S> {
            var state: S
            init(initial: S) { state = initial }
        }
        enum Form: Equatable { case editing, sending, sent }
        final class Contact: Screen<Form> {
            init() { super.init(initial: .editing) }
            func send() { if state == .editing { state = .sending } }
            func done() { if state == .sending { state = .sent } }
        }
        """)
        XCTAssertEqual(try a.machine("Contact.state").initial, "editing")
    }

    /// A `Bool` a protocol extension gives every conformer (`var isBusy: Bool { heat == .heating }`) is
    /// decided per state, as the type's own would be.
    func testABoolFromAProtocolExtensionIsDecidedPerState() throws {
        let a = Analysed.source("""
        enum Heat { case cold, heating, hot }
        protocol HeatDescribing { var heat: Heat { get } }
        extension HeatDescribing { var isBusy: Bool { heat == .heating } }
        final class Oven: HeatDescribing {
            private(set) var heat: Heat = .cold
            func fire() { if heat == .cold { heat = .heating } }
            func done() { if heat == .heating { heat = .hot } }
            func reset() {
                guard !isBusy else { return }
                heat = .cold
            }
        }
        """)
        let m = try a.machine("Oven.heat")
        XCTAssertEqual(m.moves, ["cold -fire()-> heating", "heating -done()-> hot", "hot -reset()-> cold"])
    }

    /// A progress handler given to a call the method awaits runs while it waits: it arrives in the state
    /// the method waits in, not in the one it sets after the wait.
    func testAHandlerGivenToAnAwaitedCallRunsWhileItWaits() throws {
        let a = Analysed.source("""
        enum Upload: Equatable { case idle, sending(Double), sent, failed }
        final class Pipe { func push(progress: @escaping (Double) -> Void) async throws { progress(0.5) } }
        @MainActor
        final class Uploader {
            private(set) var phase: Upload = .idle
            let pipe = Pipe()
            func send() async {
                guard phase == .idle else { return }
                phase = .sending(0)
                do {
                    try await pipe.push { fraction in
                        Task { @MainActor in self.phase = .sending(fraction) }
                    }
                    phase = .sent
                } catch {
                    phase = .failed
                }
            }
            func reset() { if phase == .sent || phase == .failed { phase = .idle } }
        }
        """)
        let m = try a.machine("Uploader.phase")
        XCTAssertEqual(Set(m.edges.filter { $0.input.contains("callback") }.map(\.from)), ["sending"])
    }

    /// A feature whose `body` runs a method, `Reduce(self.core).ifCaseLet(\.signedOut, action: \.signedOut)
    /// { … }`: the child's actions arrive only in the case it scopes them to, as with an inline `Reduce`.
    func testCaseScopingOfAReducerMethod() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Door {
            @ObservableState struct State: Equatable { var n = 0 }
            enum Action { case delegate(Delegate); enum Delegate { case done, quit } }
            var body: some ReducerOf<Self> { Reduce { _, _ in .none } }
        }
        @Reducer
        struct Lobby {
            @ObservableState
            enum State: Equatable { case splash, outside(Door.State), inside(Door.State) }
            enum Action { case restored, outside(Door.Action), inside(Door.Action) }
            var body: some ReducerOf<Self> {
                Reduce(self.core)
                    .ifCaseLet(\\.outside, action: \\.outside) { Door() }
                    .ifCaseLet(\\.inside, action: \\.inside) { Door() }
            }
        }
        extension Lobby {
            func core(into state: inout State, action: Action) -> Effect<Action> {
                switch action {
                case .restored:
                    state = .outside(Door.State())
                    return .none
                case .outside(.delegate(.done)):
                    state = .inside(Door.State())
                    return .none
                case .inside(.delegate(.quit)):
                    state = .outside(Door.State())
                    return .none
                case .outside, .inside:
                    return .none
                }
            }
        }
        """)
        let m = try a.machine("Lobby")
        XCTAssertFalse(m.moves.contains("splash -outside-> inside"), "\(m.moves)")
        XCTAssertFalse(m.moves.contains("splash -inside-> outside"), "\(m.moves)")
        XCTAssertTrue(m.moves.contains("outside -outside-> inside"), "\(m.moves)")
    }

    /// An event method switching over `(state, event)`, called again from its own callback with a case
    /// (`self?.on(.found(hits))`): only the cases naming that event at its place run.
    func testATupleSwitchOfAMethodCalledWithACase() throws {
        let a = Analysed.source("""
        enum SeekState: Equatable { case idle, looking, shown, broken }
        enum SeekEvent { case find(String), found([String]), failed(String) }
        final class Index { func run(_ q: String, completion: @escaping (Result<[String], Error>) -> Void) {} }
        final class Seeker {
            private(set) var state: SeekState = .idle
            let index = Index()
            func on(_ event: SeekEvent) {
                switch (state, event) {
                case (.idle, .find(let q)), (.shown, .find(let q)), (.broken, .find(let q)):
                    state = .looking
                    index.run(q) { [weak self] result in
                        switch result {
                        case .success(let hits): self?.on(.found(hits))
                        case .failure(let e): self?.on(.failed(e.localizedDescription))
                        }
                    }
                case (.looking, .found):
                    state = .shown
                case (.looking, .failed):
                    state = .broken
                default:
                    break
                }
            }
        }
        """)
        let m = try a.machine("Seeker.state")
        let callback = m.edges.filter { $0.input == "find callback" && $0.to != $0.from }
        let guards = Dictionary(grouping: callback, by: \.to).mapValues { edges in
            Set(edges.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText })
        }
        XCTAssertEqual(guards["shown"], ["result ~ .success(let hits)"])
        XCTAssertEqual(guards["broken"], ["result ~ .failure(let e)"])
    }
}
