import MachineModel
import XCTest

/// Shapes where Swift's rules on errors and case paths decide the edges: a `throw` a `catch` around it
/// (the caller's too) catches, the statements before a wait in a `do`, CasePaths' tests of a case,
/// payload comparisons, tables registered from several setup methods, internal helpers only the type
/// calls. Made-up identifiers.
final class ThrowsCasePathsAndTableShapeTests: XCTestCase {
    /// `try validate()` before `try await` in a `do`: a throw there is caught before the method waits, so
    /// the `catch` leads from the method's own input; a `throw` in a helper is caught by the caller's
    /// `catch`, so the path does not end in the state written before it.
    func testAThrowIsCaughtWhereItIsThrownBeforeTheWait() throws {
        let a = Analysed.source("""
        enum Post { case draft, sending, sent, rejected }
        struct Empty: Error {}
        final class Wire { func push(_ text: String) async throws {} }
        final class Outbox {
            var post: Post = .draft
            var text = ""
            private let wire = Wire()
            func send() async {
                post = .sending
                do {
                    try check()
                    try await wire.push(text)
                    post = .sent
                } catch {
                    post = .rejected
                }
            }
            func edit() { if post != .sending { post = .draft } }
            private func check() throws { if text.isEmpty { throw Empty() } }
        }
        """)
        let outbox = try a.machine("Outbox.post")
        XCTAssertTrue(outbox.moves.contains("draft -send()-> rejected"), "\(outbox.moves)")
        XCTAssertTrue(outbox.moves.contains("sending -send() after push()-> sent"), "\(outbox.moves)")
        XCTAssertTrue(outbox.moves.contains("sending -send() after push()-> rejected"), "\(outbox.moves)")

        let b = Analysed.source("""
        enum Crate { case open, packing, sealed, broken }
        struct Jam: Error {}
        final class Packer {
            var crate: Crate = .open
            var items: [Int] = []
            func seal() {
                do {
                    crate = .packing
                    try fill()
                    crate = .sealed
                } catch {
                    crate = .broken
                }
            }
            func reopen() { if crate != .packing { crate = .open } }
            private func fill() throws { if items.isEmpty { throw Jam() } }
        }
        """)
        let packer = try b.machine("Packer.crate")
        let ends = Set(packer.edges.filter { $0.input == "seal()" }.map(\.to))
        XCTAssertEqual(ends, ["sealed", "broken"], "a throw the caller catches does not leave in 'packing'")

        // an inner `catch` that writes and throws again: the outer `catch` goes on from its write
        let c = Analysed.source("""
        struct Page {}
        final class Press { func ink(_ p: Page) throws -> [UInt8] { [] } }
        final class Tray { func drop(_ b: [UInt8]) throws {} }
        final class Printer {
            enum Job { case idle, printing, printed, inkFailed, trayFailed }
            private(set) var job: Job = .idle
            private let press = Press(), tray = Tray()
            func print(_ page: Page) {
                job = .printing
                do {
                    let bytes: [UInt8]
                    do { bytes = try press.ink(page) } catch { job = .inkFailed; throw error }
                    try tray.drop(bytes)
                    job = .printed
                } catch {
                    if job == .printing { job = .trayFailed }
                }
            }
            func clear() { job = .idle }
        }
        """)
        let printer = try c.machine("Printer.job")
        XCTAssertEqual(Set(printer.edges.filter { $0.from == "idle" && $0.input == "print()" }.map(\.to)), ["printed", "inkFailed", "trayFailed"])
    }

    /// `@CasePathable` tests of the case (`phase.is(\.uploading)`, `phase.uploading != nil`, `guard let
    /// x = phase.uploading`) narrow the state as `if case` does; comparing with a case's payload
    /// (`state == .page(1)`) holds for some values of the case only.
    func testCasePathTestsAndPayloadComparisons() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Upload {
            @CasePathable
            enum Phase: Equatable { case idle, sending(Double), done(String) }
            @ObservableState
            struct State: Equatable { var phase: Phase = .idle }
            enum Action { case start, progressed(Double), finished(String), dismiss }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .start:
                        guard state.phase.is(\\.idle) else { return .none }
                        state.phase = .sending(0)
                        return .none
                    case let .progressed(p):
                        guard let _ = state.phase.sending else { return .none }
                        state.phase = .sending(p)
                        return .none
                    case let .finished(url):
                        guard state.phase.sending != nil else { return .none }
                        state.phase = .done(url)
                        return .none
                    case .dismiss:
                        if state.phase[case: \\.done] != nil { state.phase = .idle }
                        return .none
                    }
                }
            }
        }
        """)
        let upload = try a.machine("Upload.phase")
        XCTAssertEqual(upload.moves, ["idle -start-> sending", "sending -finished-> done", "done -dismiss-> idle"])

        let b = Analysed.source("""
        enum Leaf: Equatable { case cover, page(Int), back }
        final class Book {
            var state: Leaf = .cover
            func open() { if state == .cover { state = .page(1) } }
            func close() { state = .back }
            func turnBack() {
                guard state != .page(1) else { state = .cover; return }
                if case .page(let n) = state { state = .page(n - 1) }
            }
        }
        """)
        let book = try b.machine("Book.state")
        XCTAssertTrue(book.allEdges.contains("page -turnBack()-> page"), "a page other than 1 goes on turning: \(book.allEdges)")
        XCTAssertTrue(book.moves.contains("page -turnBack()-> cover"), "\(book.moves)")
    }

    /// Rows registered on a property of the type from two setup methods make one table; an error type
    /// carrying the enum in constants (`let from: Phase`) holds no machine, so the starting state stays.
    func testRegistrationsFromSeveralMethodsAndConstantHolders() throws {
        let a = Analysed.source("""
        final class Table<S: Hashable, E: Hashable> {
            init(initial: S) {}
            func addRow(from: S, to: S, on e: E) {}
        }
        enum Tape: Hashable { case idle, loading, playing, ended }
        enum Knob: Hashable { case load, ready, finish, rewind }
        final class Deck {
            let table = Table<Tape, Knob>(initial: .idle)
            init() { setUpPlay(); setUpEnd() }
            private func setUpPlay() {
                table.addRow(from: .idle, to: .loading, on: .load)
                table.addRow(from: .loading, to: .playing, on: .ready)
            }
            private func setUpEnd() {
                self.table.addRow(from: .playing, to: .ended, on: .finish)
                self.table.addRow(from: .ended, to: .idle, on: .rewind)
            }
        }
        """)
        XCTAssertEqual(a.machines.count, 1, "\(a.machines.map(\.name))")
        let deck = try XCTUnwrap(a.machines.first)
        XCTAssertEqual(deck.initial, "idle")
        XCTAssertTrue(deck.findings.isEmpty, "\(deck.findingSet)")

        let b = Analysed.source("""
        enum Stage: Equatable {
            case cart, paying, paid
            func canMove(to next: Stage) -> Bool {
                switch (self, next) {
                case (.cart, .paying), (.paying, .paid), (.paying, .cart): return true
                default: return false
                }
            }
        }
        struct BadMove: Error { let from: Stage; let to: Stage }
        final class Till {
            private(set) var stage: Stage = .cart
            func move(to next: Stage) throws {
                guard stage.canMove(to: next) else { throw BadMove(from: stage, to: next) }
                stage = next
            }
        }
        """)
        let stages = try XCTUnwrap(b.machines.first { $0.states == ["cart", "paying", "paid"] })
        XCTAssertEqual(stages.initial, "cart")
    }

    /// A state named as one that only the world changes, through a listener the initializer installs,
    /// is a machine, payloads and all; a `while` over a counter declared just before runs once at least;
    /// a table's machine assigned in `init` gives its start; `presenting:` given the state presents it.
    func testListenersCountersBuildersAndPresentingValues() throws {
        let a = Analysed.source("""
        struct Member { let id: String }
        final class Gatekeeper { func onChange(_ body: @escaping (Member?) -> Void) {} }
        enum Access { case unknown, out, inside(Member) }
        final class Session {
            private(set) var accessState: Access = .unknown
            private let keeper = Gatekeeper()
            init() {
                keeper.onChange { [weak self] member in
                    if let member { self?.accessState = .inside(member) } else { self?.accessState = .out }
                }
            }
            func leave() { accessState = .out }
        }
        """)
        let session = try a.machine("Session.accessState")
        XCTAssertEqual(session.initial, "unknown")
        XCTAssertTrue(session.moves.contains("unknown -init() callback-> inside"), "\(session.moves)")

        let b = Analysed.source("""
        final class Socket { func open() async throws {} }
        final class Dialer {
            enum Line { case idle, dialing, up, down }
            private(set) var line: Line = .idle
            private let socket = Socket()
            func dial() async {
                var tries = 0
                while tries < 3 {
                    line = .dialing
                    do { try await socket.open(); line = .up; return } catch { tries += 1 }
                }
                line = .down
            }
            func hangUp() { line = .idle }
        }
        """)
        let dialer = try b.machine("Dialer.line")
        XCTAssertFalse(dialer.moves.contains("idle -dial()-> down"), "the loop runs once at least: \(dialer.moves)")
        XCTAssertTrue(dialer.moves.contains("dialing -dial() after open()-> down"), "\(dialer.moves)")

        let c = Analysed.source("""
        final class Wheel<S: Hashable, E: Hashable> {
            init(initial: S) {}
            func addTransition(from: S, to: S, on e: E) {}
        }
        enum Latch: Hashable { case shut, ajar }
        enum Hand: Hashable { case pull, push }
        final class Hatch {
            let wheel: Wheel<Latch, Hand>
            init() {
                wheel = Wheel<Latch, Hand>(initial: .shut)
                wheel.addTransition(from: .shut, to: .ajar, on: .pull)
                wheel.addTransition(from: .ajar, to: .shut, on: .push)
            }
        }
        """)
        XCTAssertEqual(try c.machine("wheel").initial, "shut")

        let d = Analysed.source("""
        import SwiftUI
        struct Settings: View {
            enum Ask: Identifiable { case wipe, export; var id: Self { self } }
            @State private var ask: Ask?
            var body: some View {
                Button("Wipe") { ask = .wipe }
                    .confirmationDialog("Sure?", isPresented: Binding(get: { ask != nil }, set: { if !$0 { ask = nil } }),
                                        presenting: ask) { _ in Button("Yes") { ask = nil } }
            }
        }
        """)
        let settings = try d.machine("Settings.ask")
        XCTAssertTrue(settings.moves.contains("wipe -confirmationDialog dismissed-> nil"), "\(settings.moves)")
    }

    /// An internal method that changes the state only through the work it starts, which only the type's
    /// own methods call (no code names it on another value), is their helper: its callback arrives in the
    /// state its caller left, not in every state. Work of one that code elsewhere calls (`m.push()`) stays
    /// an input of its own, and so does a method writing the state itself (`close()`, which `lockDown()` calls).
    func testAnInternalHelperStartingWorkOnlyTheTypeCallsIsNoInput() throws {
        let source = """
        enum Sync { case idle, syncing, synced, failed }
        protocol Cloud { func upload(done: @escaping (Bool) -> Void) }
        final class SyncModel {
            var sync: Sync = .idle
            let cloud: Cloud
            init(cloud: Cloud) { self.cloud = cloud }
            func start() {
                guard sync != .syncing else { return }
                sync = .syncing
                push()
            }
            func push() {
                cloud.upload { [weak self] ok in
                    self?.sync = ok ? .synced : .failed
                }
            }
            func close() { if sync == .synced { sync = .idle } }
            func lockDown() { close(); sync = .failed }
        }
        """
        let own = try Analysed.source(source).machine("SyncModel.sync")
        XCTAssertEqual(Set(own.edges.filter { $0.to == "synced" }.map(\.from)), ["syncing"], "\(own.allEdges)")
        XCTAssertFalse(own.inputs.contains("push()"), "\(own.inputs)")
        XCTAssertTrue(own.inputs.contains("close()"), "\(own.inputs)")

        let called = try Analysed.source(source + "\nfunc retry(_ m: SyncModel) { m.push() }\n").machine("SyncModel.sync")
        XCTAssertTrue(called.inputs.contains("push() callback"), "\(called.inputs)")
        XCTAssertTrue(called.moves.contains("idle -push() callback-> synced"), "\(called.moves)")
    }

    /// An Elm-style update function's machine starts where the property keeping its result does, however
    /// the result comes back: a tuple assignment, a local bound to it, or the property given `inout`.
    func testAnUpdateKeptThroughATupleALocalOrInoutStartsWhereItsPropertyDoes() throws {
        for (keep, update) in [("(screen, _) = step(screen, tap)", "func step(_ s: Screen, _ t: Tap) -> (Screen, Int) { switch (s, t) { case (.home, .next): return (.form, 1); case (.form, .back): return (.home, 0); default: return (s, 0) } }"),
                               ("let (after, _) = step(screen, tap); screen = after", "func step(_ s: Screen, _ t: Tap) -> (Screen, Int) { switch (s, t) { case (.home, .next): return (.form, 1); case (.form, .back): return (.home, 0); default: return (s, 0) } }"),
                               ("step(&screen, tap)", "func step(_ s: inout Screen, _ t: Tap) { switch (s, t) { case (.home, .next): s = .form; case (.form, .back): s = .home; default: break } }")] {
            let a = Analysed.source("""
            enum Screen { case home, form }
            enum Tap { case next, back }
            \(update)
            final class Shell {
                private var screen: Screen = .home
                func send(_ tap: Tap) { \(keep) }
            }
            """)
            let step = try a.machine("step")
            XCTAssertEqual(step.initial, "home", keep)
        }
    }

    /// An asynchronous `Operation`'s computed `state`, kept in a stored `_state` under a queue with KVO
    /// calls around it, is the machine, starting where `_state` does; a base method only subclasses
    /// implement (`fatalError("subclasses override")`) is not followed as a trap.
    func testAComputedStateKeptInAStoredPropertyUnderAQueue() throws {
        let a = Analysed.source("""
        import Foundation
        class AsyncJob: Operation {
            enum State: String { case ready = "isReady", executing = "isExecuting", finished = "isFinished" }
            private let queue = DispatchQueue(label: "job.state", attributes: .concurrent)
            private var _state: State = .ready
            var state: State {
                get { queue.sync { _state } }
                set {
                    willChangeValue(forKey: newValue.rawValue)
                    queue.sync(flags: .barrier) { _state = newValue }
                    didChangeValue(forKey: newValue.rawValue)
                }
            }
            override var isExecuting: Bool { state == .executing }
            override var isFinished: Bool { state == .finished }
            override func start() {
                if isCancelled { state = .finished; return }
                state = .executing
                run()
            }
            func run() { fatalError("subclasses override") }
            func finish() { state = .finished }
        }
        final class FetchJob: AsyncJob {
            override func run() { finish() }
        }
        """)
        let job = try a.machine("AsyncJob.state")
        XCTAssertEqual(job.initial, "ready")
        XCTAssertTrue(job.moves.contains("ready -start()-> executing"), "\(job.moves)")
        XCTAssertTrue(job.moves.contains("executing -finish()-> finished"), "\(job.moves)")
    }
}
