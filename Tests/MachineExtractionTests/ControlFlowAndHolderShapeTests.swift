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
}
