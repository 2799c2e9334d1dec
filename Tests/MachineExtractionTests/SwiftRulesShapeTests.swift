import MachineModel
import XCTest

/// Shapes where one of Swift's own rules decides the edges (made-up identifiers): the innermost
/// declaration of a name, a `try` that leaves the method, `#if` clauses, an initializer that only traps,
/// a local holding `self`, one-expression getters, work that starts itself again, and a few shapes of
/// app code read wrongly before (a delayed hand-over in a callback, a holder's ternary between state
/// objects, a loop folding values into a local).
final class SwiftRulesShapeTests: XCTestCase {
    /// A local or parameter named like the member state hides it: its writes and tests are not the state's.
    func testALocalOrParameterNamedLikeTheStateHidesIt() throws {
        let a = Analysed.source("""
        final class Hatch {
            enum State { case shut, open, stuck }
            var state: State = .shut
            func open() { if state == .shut { state = .open } }
            func close() { if state == .open { state = .shut } }
            func preview() -> State {
                var state = State.shut
                state = .open
                return state
            }
            func jam(unless state: State) {
                if state == .shut { self.state = .stuck }
            }
            func free() { if state == .stuck { state = .shut } }
        }
        """)
        let hatch = try a.machine("Hatch.state")
        XCTAssertFalse(hatch.inputs.contains("preview()"), "\(hatch.inputs)")
        // `jam(unless:)` tests its parameter, so it may jam the hatch from either state
        XCTAssertEqual(hatch.moves, ["shut -open()-> open", "open -close()-> shut", "shut -jam()-> stuck", "open -jam()-> stuck",
                                     "stuck -free()-> shut"])
    }

    /// A `try` no `catch` catches leaves the method with the state as it is there.
    func testATryLeavesTheMethodWithTheStateAsItIs() throws {
        let a = Analysed.source("""
        final class Importer {
            enum Phase { case ready, reading, imported }
            var phase: Phase = .ready
            func parse() throws {}
            func run() throws {
                guard phase == .ready else { return }
                phase = .reading
                try parse()
                phase = .imported
            }
            func rewind() { phase = .ready }
        }
        """)
        let importer = try a.machine("Importer.phase")
        XCTAssertNotNil(importer.edge("ready", "run()", "reading"), "\(importer.moves)")
        XCTAssertNotNil(importer.edge("ready", "run()", "imported"))
        // (`try?` and a `do` with a `catch` do not leave it)
        let b = Analysed.source("""
        final class Importer {
            enum Phase { case ready, reading, imported, broken }
            var phase: Phase = .ready
            func parse() throws {}
            func run() {
                guard phase == .ready else { return }
                phase = .reading
                try? parse()
                do { try parse() } catch { phase = .broken; return }
                phase = .imported
            }
            func rewind() { phase = .ready }
        }
        """)
        let caught = try b.machine("Importer.phase")
        XCTAssertNil(caught.edge("ready", "run()", "reading"), "\(caught.moves)")
        XCTAssertNotNil(caught.edge("ready", "run()", "broken"))
    }

    /// Each clause of an `#if` in a body is a way the program may be built.
    func testIfConfigClausesAreBranches() throws {
        let a = Analysed.source("""
        final class Tour {
            enum Screen { case intro, grant, tools, finished }
            var screen: Screen = .intro
            func next() {
                switch screen {
                case .intro: screen = .grant
                case .grant:
                    #if DEBUG
                    screen = .tools
                    #else
                    screen = .finished
                    #endif
                case .tools: screen = .finished
                case .finished: break
                }
            }
            func restart() { screen = .intro }
        }
        """)
        let tour = try a.machine("Tour.screen")
        XCTAssertNotNil(tour.edge("grant", "next()", "tools"), "\(tour.moves)")
        XCTAssertNotNil(tour.edge("grant", "next()", "finished"))
        // (so are the two sides of `if #available`: the platform decides)
        let b = Analysed.source("""
        final class Lens {
            enum Mode { case still, film, depth }
            var mode: Mode = .still
            func cycle() {
                switch mode {
                case .still: mode = .film
                case .film:
                    if #available(iOS 18, *) { mode = .depth } else { mode = .still }
                case .depth: mode = .still
                }
            }
            func reset() { mode = .still }
        }
        """)
        let lens = try b.machine("Lens.mode")
        XCTAssertNotNil(lens.edge("film", "cycle()", "depth"), "\(lens.moves)")
        XCTAssertNotNil(lens.edge("film", "cycle()", "still"))
    }

    /// `required init?(coder:) { fatalError() }` makes no value: the other initializer's start counts.
    func testAnInitializerThatOnlyTrapsSetsNoStart() throws {
        let a = Analysed.source("""
        class Panel {}
        final class SyncPanel: Panel {
            enum Status { case idle, syncing, synced }
            private var status: Status
            init(name: String) { status = .idle; super.init() }
            required init?(coder: String) { fatalError("not used") }
            func sync() { guard status == .idle else { return }; status = .syncing }
            func done() { guard status == .syncing else { return }; status = .synced }
        }
        """)
        XCTAssertEqual(try a.machine("SyncPanel.status").initial, "idle")
    }

    /// `guard let strongSelf = self` (and `if let me = self`): writes through the local are the object's.
    func testALocalHoldingSelfIsSelf() throws {
        let a = Analysed.source("""
        final class Api { func signIn(_ done: @escaping (Bool) -> Void) {} }
        final class SignIn {
            enum State { case idle, waiting, signedIn, refused }
            var state: State = .idle
            let api = Api()
            func submit() {
                guard state == .idle else { return }
                state = .waiting
                api.signIn { [weak self] ok in
                    guard let strongSelf = self else { return }
                    strongSelf.state = ok ? .signedIn : .refused
                }
            }
            func reset() { state = .idle }
        }
        """)
        let signIn = try a.machine("SignIn.state")
        XCTAssertNotNil(signIn.edge("waiting", "submit() callback", "signedIn"), "\(signIn.moves)")
        XCTAssertNil(signIn.edge("waiting", "submit() callback", "signedIn")?.guardText?.range(of: "strongSelf"))
    }

    /// A successor written as one expression (`self == .red ? .blue : .red`) steps the holder; a shared
    /// enum stepped by it keeps both cases.
    func testAOneExpressionSuccessorSteps() throws {
        let a = Analysed.source("""
        enum Team { case red, blue
            var other: Team { self == .red ? .blue : .red }
        }
        struct Player { var team: Team }
        final class Match {
            private(set) var serving: Team = .red
            func point() { serving = serving.other }
            func reset() { serving = .red }
        }
        """)
        let match = try a.machine("Match.serving")
        XCTAssertEqual(match.states, ["red", "blue"])
        XCTAssertEqual(match.moves, ["red -point()-> blue", "blue -point()-> red", "blue -reset()-> red"])
        XCTAssertTrue(match.findings.isEmpty, "\(match.findingSet)")
    }

    /// A callback that starts itself again (`receive { … self.listen() }`) arrives in the states it leads to.
    func testWorkThatStartsItselfAgainArrivesInItsNewStates() throws {
        let a = Analysed.source("""
        final class Socket { func receive(_ handler: @escaping (Result<String, Error>) -> Void) {} }
        final class Ticker {
            enum Link { case down, dialing, up }
            private(set) var link: Link = .down
            private let socket = Socket()
            func open() {
                guard link == .down else { return }
                link = .dialing
                listen()
            }
            private func listen() {
                socket.receive { [weak self] result in
                    guard let self else { return }
                    switch result {
                    case .success: self.link = .up; self.listen()
                    case .failure: self.link = .down
                    }
                }
            }
        }
        """)
        let ticker = try a.machine("Ticker.link")
        XCTAssertNotNil(ticker.edge("up", "open() callback", "down"), "\(ticker.moves)")
        XCTAssertFalse(ticker.findingSet.contains("dead_end_state up"))
    }

    /// `asyncAfter` in a completion handler runs later, after the handler's own write.
    func testADelayInACallbackRunsLater() throws {
        let source = """
        import Foundation
        final class Backend { func post(_ done: @escaping () -> Void) {} }
        final class Banner {
            enum Shown { case hidden, entering, shown, leaving }
            private var shown: Shown = .hidden
            private let backend = Backend()
            func present() {
                guard shown == .hidden else { return }
                shown = .entering
                backend.post { [weak self] in
                    self?.shown = .shown
                    DispatchQueue.main.asyncAfter(deadline: .now() + 2) { [weak self] in self?.shown = .leaving }
                }
            }
            func clear() { guard shown == .leaving else { return }; shown = .hidden }
        }
        """
        let a = Analysed.source(source)
        let banner = try a.machine("Banner.shown")
        XCTAssertNotNil(banner.edge("entering", "present() callback", "shown"), "\(banner.moves)")
        XCTAssertNotNil(banner.edge("shown", "present() callback task", "leaving"))
        // (so does a hop to the main queue after the callback's own write)
        let b = Analysed.source(source.replacingOccurrences(of: "asyncAfter(deadline: .now() + 2)", with: "async"))
        let hopped = try b.machine("Banner.shown")
        XCTAssertNil(hopped.edge("entering", "present() callback", "leaving"), "\(hopped.moves)")
        XCTAssertNotNil(hopped.edge("shown", "present() callback task", "leaving"))
    }

    /// A holder's method choosing between two state objects (`fast ? Sprint() : Walk()`) is an input.
    func testAHolderChoosingBetweenStateObjects() throws {
        let a = Analysed.source("""
        protocol Gait { func step(_ r: Runner) }
        struct Walk: Gait { func step(_ r: Runner) { r.gait = Jog() } }
        struct Jog: Gait { func step(_ r: Runner) {} }
        struct Sprint: Gait { func step(_ r: Runner) {} }
        final class Runner {
            var gait: Gait = Walk()
            func step() { gait.step(self) }
            func pace(fast: Bool) { gait = fast ? Sprint() : Walk() }
        }
        """)
        let runner = try a.machine("Runner.gait")
        XCTAssertNotNil(runner.edge("Walk", "pace", "Sprint"), "\(runner.moves)")
        XCTAssertFalse(runner.findingSet.contains("unreachable_state Sprint"))
    }

    /// A loop folding values of the local's own enum into it (the most severe seen) computes a value: no
    /// local machine; a loop over events of another enum stepping a local stage is one.
    func testALoopFoldingValuesOfItsOwnEnumIsNoMachine() throws {
        let a = Analysed.source("""
        enum Level { case fine, odd, bad }
        struct Reading { var level: Level }
        func worst(_ levels: [Level]) -> Level {
            var result = Level.fine
            for level in levels {
                switch level {
                case .bad: result = .bad
                case .odd where result == .fine: result = .odd
                default: break
                }
            }
            return result
        }
        func worstReading(_ readings: [Reading]) -> Level {
            var top = Level.fine
            for r in readings {
                switch r.level {
                case .bad: top = .bad
                case .odd where top == .fine: top = .odd
                default: break
                }
            }
            return top
        }
        enum Signal { case start, finish }
        enum Leg { case before, during, after }
        func follow(_ signals: [Signal]) -> Leg {
            var leg = Leg.before
            for s in signals {
                switch s {
                case .start where leg == .before: leg = .during
                case .finish where leg == .during: leg = .after
                default: break
                }
            }
            return leg
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["follow().leg"])
        XCTAssertEqual(try a.machine("follow().leg").moves, ["before -start-> during", "during -finish-> after"])
    }

    /// A settable property given a case from outside its type (`stub.mode = .stall` in a test) is an input
    /// named by the function doing it; a private(set) one and a value of another type are not.
    func testWritesFromOutsideTheTypeAreInputs() throws {
        let a = Analysed.source("""
        final class StubService {
            enum Mode { case answer, refuse, stall }
            var mode: Mode = .answer
            func refuseNext() { if mode == .answer { mode = .refuse } }
            func restore() { if mode != .answer { mode = .answer } }
        }
        final class Other { var mode: StubService.Mode = .answer }
        final class ServiceChecks {
            let stub = StubService()
            func stalls() { stub.mode = .stall }
            func otherStalls(_ other: Other) { other.mode = .stall }
        }
        """)
        let stub = try a.machine("StubService.mode")
        XCTAssertEqual(stub.moves, ["answer -refuseNext()-> refuse", "refuse -restore()-> answer", "stall -restore()-> answer",
                                    "answer -ServiceChecks.stalls()-> stall", "refuse -ServiceChecks.stalls()-> stall"])
        XCTAssertFalse(stub.findingSet.contains("unreachable_state stall"))
    }

    /// A computed property's setter that sets the state (`isOn = true` with `set { power = newValue ? .on :
    /// .off }`) runs with `newValue` the value assigned.
    func testAComputedSetterSetsTheState() throws {
        let a = Analysed.source("""
        final class Heater {
            enum Power { case off, on, broken }
            var power: Power = .off
            var isOn: Bool {
                get { power == .on }
                set { power = newValue ? .on : .off }
            }
            func switchOn() { guard power == .off else { return }; isOn = true }
            func switchOff() { guard power == .on else { return }; isOn = false }
            func overheat() { power = .broken }
            func repair() { if power == .broken { power = .off } }
        }
        """)
        let heater = try a.machine("Heater.power")
        XCTAssertEqual(heater.moves, ["off -switchOn()-> on", "on -switchOff()-> off", "off -overheat()-> broken",
                                      "on -overheat()-> broken", "broken -repair()-> off"])
    }

    /// State objects kept in the holder's properties (the gumball machine's `m.state = m.soldOut`) or in
    /// a state type's static one (`Idle.shared`) are the states they keep.
    func testStateObjectsKeptInProperties() throws {
        let a = Analysed.source("""
        protocol Slot: AnyObject { func insert() }
        final class Vendor {
            lazy var empty: Slot = EmptySlot(vendor: self)
            lazy var paid: Slot = PaidSlot(vendor: self)
            lazy var slot: Slot = empty
            func insert() { slot.insert() }
        }
        final class EmptySlot: Slot { unowned let vendor: Vendor; init(vendor: Vendor) { self.vendor = vendor }
            func insert() { vendor.slot = vendor.paid } }
        final class PaidSlot: Slot { unowned let vendor: Vendor; init(vendor: Vendor) { self.vendor = vendor }
            func insert() { vendor.slot = vendor.empty } }

        protocol Mood { func poke(_ c: Cat) }
        final class Calm: Mood { static let shared = Calm(); func poke(_ c: Cat) { c.mood = Cross.shared } }
        final class Cross: Mood { static let shared = Cross(); func poke(_ c: Cat) { c.mood = Calm.shared } }
        final class Cat { var mood: Mood = Calm.shared; func poke() { mood.poke(self) } }
        """)
        let vendor = try a.machine("Vendor.slot")
        XCTAssertEqual(vendor.initial, "EmptySlot")
        XCTAssertEqual(vendor.moves, ["EmptySlot -insert-> PaidSlot", "PaidSlot -insert-> EmptySlot"])
        let cat = try a.machine("Cat.mood")
        XCTAssertEqual(cat.initial, "Calm")
        XCTAssertEqual(cat.moves, ["Calm -poke-> Cross", "Cross -poke-> Calm"])
    }

    /// The state's own `didSet` runs after each write of it: one that moves it on (`if state == .paused &&
    /// locked { state = .idle }`) is part of the write.
    func testTheStatesOwnDidSetRunsAfterEachWrite() throws {
        let a = Analysed.source("""
        final class Kiosk {
            enum State { case idle, serving, paused }
            var locked = false
            var state: State = .idle {
                didSet { if state == .paused && locked { state = .idle } }
            }
            func serve() { if state == .idle { state = .serving } }
            func pause() { if state == .serving { state = .paused } }
            func resume() { if state == .paused { state = .serving } }
        }
        """)
        let kiosk = try a.machine("Kiosk.state")
        XCTAssertEqual(kiosk.moves, ["idle -serve()-> serving", "serving -pause()-> idle", "serving -pause()-> paused",
                                     "paused -resume()-> serving"])
    }

    /// A static constant of the state's enum standing for a case (`static let initial: State = .offline`,
    /// `static var initial: Self { .offline }`) is that case, as a start and as a target.
    func testAStaticConstantOfTheEnumIsItsCase() throws {
        let a = Analysed.source("""
        final class Radio {
            enum State { case off, tuning, playing
                static let initial: State = .off
            }
            var state: State = .initial
            func tune() { if state == .off { state = .tuning } }
            func lock() { if state == .tuning { state = .playing } }
            func stop() { state = .initial }
        }
        final class Pager {
            enum Mode { case idle, paging }
            var mode = Mode.start
            func page() { if mode == .idle { mode = .paging } }
            func settle() { mode = Mode.start }
        }
        extension Pager.Mode {
            static var start: Self { .idle }
        }
        """)
        let radio = try a.machine("Radio.state")
        XCTAssertEqual(radio.initial, "off")
        XCTAssertEqual(radio.moves, ["off -tune()-> tuning", "tuning -lock()-> playing", "tuning -stop()-> off", "playing -stop()-> off"])
        let pager = try a.machine("Pager.mode")
        XCTAssertEqual(pager.initial, "idle")
        XCTAssertEqual(pager.moves, ["idle -page()-> paging", "paging -settle()-> idle"])
    }

    /// A state object's method telling its event apart with a `guard`, a ternary or an `if` that returns
    /// moves on that event only.
    func testAStateObjectsEventTestsDecideTheEvent() throws {
        let a = Analysed.source("""
        enum Signal { case go, halt }
        protocol Phase { func on(_ s: Signal) -> Phase }
        struct Waiting: Phase { func on(_ s: Signal) -> Phase { guard s == .go else { return self }; return Moving() } }
        struct Moving: Phase { func on(_ s: Signal) -> Phase { s == .halt ? Stopped() : self } }
        struct Stopped: Phase { func on(_ s: Signal) -> Phase { if s == .go { return Moving() }; return self } }
        final class Cart { var phase: Phase = Waiting(); func send(_ s: Signal) { phase = phase.on(s) } }
        """)
        let cart = try a.machine("Cart.phase")
        XCTAssertEqual(cart.moves, ["Waiting -go-> Moving", "Moving -halt-> Stopped", "Stopped -go-> Moving"])
        XCTAssertNil(cart.edge("Waiting", "go", "Moving")?.guardText)
    }
}
