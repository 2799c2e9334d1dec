import Foundation
import MachineExtraction
import MachineModel
import XCTest

/// Shapes met in real repositories during field testing (issue 8 part C), each written again with
/// made-up identifiers.
final class PredicateShapeTests: XCTestCase {
    /// A table row's from-side written as any of the predicate spellings real tables use.
    func rowMachine(_ predicate: String, extra: String = "") throws -> Machine {
        let (machines, _) = try Fixture.analyze(source: """
        import Harvest
        enum Kettle { case cold, warm, boiling, cracked }
        enum Dial { case heat, cool, drop }
        \(extra)
        let kettleRows: [Harvester<Dial, Kettle>.Mapping] = [
            .heat | .cold => .warm,
            .heat | .warm => .boiling,
            .cool | \(predicate) => .cold,
            .drop | .cold => .cracked,
        ]
        let kettle = Harvester<Dial, Kettle>(state: .cold, inputs: dials, mapping: .reduce(.first, kettleRows), scheduler: queue)
        """)
        return try XCTUnwrap(machines.first)
    }

    func testArrayLiteralWithQualifiedAndDotElements() throws {
        let m = try rowMachine("isHot", extra: "let isHot: (Kettle) -> Bool = [Kettle.warm, .boiling].contains")
        XCTAssertEqual(m.transitions.filter { $0.contains("cool") }, Set(["warm -cool-> cold", "boiling -cool-> cold"]))
    }

    func testSetLiteralContains() throws {
        let m = try rowMachine("Set<Kettle>([.warm, .boiling]).contains")
        XCTAssertEqual(m.transitions.filter { $0.contains("cool") }, Set(["warm -cool-> cold", "boiling -cool-> cold"]))
    }

    func testClosureWithTypedParameterAndNotEqual() throws {
        let m = try rowMachine("intact", extra: "let intact = { (k: Kettle) -> Bool in k != .cracked && k != .cold }")
        XCTAssertEqual(m.transitions.filter { $0.contains("cool") }, Set(["warm -cool-> cold", "boiling -cool-> cold"]))
        XCTAssertNil(m.rules[2].guardText, "fully read: no guard, no over-approximation")
    }

    func testFunctionWithSwitchReturningBool() throws {
        let m = try rowMachine("isHot", extra: """
        func isHot(_ k: Kettle) -> Bool {
            switch k {
            case .warm, .boiling: return true
            default: return false
            }
        }
        """)
        XCTAssertEqual(m.transitions.filter { $0.contains("cool") }, Set(["warm -cool-> cold", "boiling -cool-> cold"]))
    }

    func testPatternMatchOperatorAndIfCase() throws {
        let m = try rowMachine("{ .warm ~= $0 || isBoiling($0) }", extra: """
        func isBoiling(_ k: Kettle) -> Bool {
            if case .boiling = k { return true }
            return false
        }
        """)
        XCTAssertEqual(m.transitions.filter { $0.contains("cool") }, Set(["warm -cool-> cold", "boiling -cool-> cold"]))
    }

    func testUnreadablePredicateIsMarkedAsAnOverApproximation() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        import Harvest
        enum Kettle { case cold, warm }
        enum Dial { case heat, cool }
        let rows: [Harvester<Dial, Kettle>.Mapping] = [
            .heat | .cold => .warm,
            .cool | { $0 == .warm && thermometer.reading > 80 } => .cold,
        ]
        """)
        let m = try XCTUnwrap(machines.first)
        XCTAssertEqual(m.transitions, ["cold -heat-> warm", "warm -cool-> cold"], "only the states it may accept")
        XCTAssertEqual(m.rules[1].guardText, "{ $0 == .warm && thermometer.reading > 80 }")
        XCTAssertTrue(diagnostics.contains { $0.severity == .note && $0.message.contains("only partly read") })
    }

    func testComputedPropertyAndPredicateFunctionInASwitchMethodGuard() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Pump { case idle, priming, running, jammed
            var isMoving: Bool {
                switch self {
                case .priming, .running: true
                default: false
                }
            }
        }
        enum PumpEvent { case start, stop, jam }
        func isStuck(_ p: Pump) -> Bool { [Pump.jammed].contains(p) }
        struct Station {
            var pump: Pump = .idle
            mutating func handle(_ e: PumpEvent) {
                switch e {
                case .start:
                    if isStuck(pump) { return }
                    if !pump.isMoving { pump = .priming }
                case .stop:
                    if pump.isMoving { pump = .idle }
                case .jam:
                    pump = .jammed
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Station.pump"))
        XCTAssertEqual(m.transitions, [
            "idle -start-> priming", "priming -stop-> idle", "running -stop-> idle",
            "idle -jam-> jammed", "priming -jam-> jammed", "running -jam-> jammed",
        ])
        XCTAssertTrue(m.rules.allSatisfy { $0.displayGuard == nil }, "every condition is decided per state")
    }
}

final class CandidateShapeTests: XCTestCase {
    func explain(_ source: String) throws -> ExtractionResult {
        try Fixture.withFolder(["Candidates.swift": source]) { Extractor.extract(paths: $0) }
    }

    func testGameplayKitMachineSubclassIsFound() throws {
        let result = try explain("""
        import GameplayKit
        class Lobby: GKState { override func isValidNextState(_ c: AnyClass) -> Bool { c == Round.self } }
        class Round: GKState { override func isValidNextState(_ c: AnyClass) -> Bool { c == Lobby.self } }
        class Tournament: GKStateMachine {}
        final class Arena {
            let flow = Tournament(states: [Lobby(), Round()])
            func begin() { flow.enter(Lobby.self) }
        }
        """)
        let m = try XCTUnwrap(result.machines.first)
        XCTAssertEqual(m.dialect, .gameplaykit)
        XCTAssertEqual(m.states, ["Lobby", "Round"])
        XCTAssertEqual(m.initial, "Lobby")
        let candidate = try XCTUnwrap(result.candidates.first { $0.shape == "Tournament(…)" })
        XCTAssertEqual(candidate.outcome, .machine)
        XCTAssertEqual(candidate.machines, [m.id])
    }

    func testEveryCandidateEndsAsAMachineOrADiagnostic() throws {
        let result = try explain("""
        import ComposableArchitecture
        @Reducer struct Counter {
            struct State { var count = 0 }
            enum Action { case increment }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    state.count += 1
                    return .none
                }
            }
        }
        enum Valve { case shut, open }
        final class Pipe {
            private var valve: Valve = .shut
            func toggle() {
                switch valve {
                case .shut: valve = .open
                case .open: valve = .shut
                }
            }
        }
        """)
        XCTAssertEqual(result.machines, [])
        XCTAssertEqual(result.candidates.map(\.shape), ["@Reducer", "switch over a state property"])
        for c in result.candidates {
            XCTAssertEqual(c.outcome, .diagnostic)
            XCTAssertNotNil(c.reason)
            XCTAssertTrue(result.diagnostics.contains { $0.message == c.reason }, "the reason is a diagnostic too")
        }
        XCTAssertEqual(result.candidates[1].name, "Pipe.valve")
    }

    func testOrdinarySwitchesAreNoCandidates() throws {
        let result = try explain("""
        enum Mode { case fast, slow }
        struct Reader {
            let mode: Mode
            func delay() -> Int {
                switch mode {
                case .fast: return 1
                case .slow: return 5
                }
            }
        }
        """)
        XCTAssertEqual(result.candidates, [], "a switch over a property nothing assigns is no machine")
    }

    /// A reducer outside a `@Reducer` type whose state is a struct with no field that is a machine says
    /// why, and the construction holding it gives that reason too, where both guessed before ("switches
    /// over no state or action", "the rules … were not found").
    func testAReducerOverAStructWithoutMachineFieldsSaysWhy() throws {
        let result = try explain("""
        import Actomaton
        enum Knob { case twist, push }
        struct Dial { var turns = 0; var label = "" }
        let dial = Actomaton<Knob, Dial, Never>(
            state: Dial(),
            reducer: Reducer { knob, dial, _ in
                switch knob {
                case .twist: dial.turns += 1
                case .push: dial.turns = 0
                }
                return .empty
            }
        )
        """)
        XCTAssertEqual(result.machines, [])
        XCTAssertEqual(result.candidates.map(\.shape), ["Actomaton(…)", "Reducer { }"])
        let why = "reducer: no field of its state `Dial` is an enum, a Bool or an optional that it assigns; no machine extracted"
        for c in result.candidates {
            XCTAssertEqual(c.outcome, .diagnostic)
            XCTAssertEqual(c.reason, why)
        }
        XCTAssertEqual(result.diagnostics.filter { $0.message == why }.count, 1)
        XCTAssertFalse(result.diagnostics.contains { $0.message.contains("shaped like a state machine") })
    }

    /// A construction that names a reducer declared elsewhere: it built the reducer's field machines
    /// (it said "the rules … were not found" before), or says why the reducer gave none.
    func testAConstructionNamingAStructStateReducerGetsItsMachinesOrItsReason() throws {
        let result = try explain("""
        import Actomaton
        enum Knob { case twist, push }
        struct Dial { var lit = false; var turns = 0 }
        struct Gauge { var turns = 0 }
        let dialReducer = Reducer<Knob, Dial, Void, Never> { knob, dial, _ in
            switch knob {
            case .twist: dial.lit = true
            case .push: dial.lit = false
            }
            return .empty
        }
        let gaugeReducer = Reducer<Knob, Gauge, Void, Never> { knob, gauge, _ in
            gauge.turns += 1
            return .empty
        }
        func start() {
            let dial = Actomaton<Knob, Dial, Never>(state: Dial(), reducer: dialReducer)
            let gauge = Actomaton<Knob, Gauge, Never>(state: Gauge(), reducer: gaugeReducer)
        }
        """)
        XCTAssertEqual(result.machines.map(\.name), ["Dial.lit"])
        let constructions = result.candidates.filter { $0.shape == "Actomaton(…)" }
        XCTAssertEqual(constructions.map(\.name), ["dial", "gauge"])
        XCTAssertEqual(constructions[0].outcome, .machine)
        XCTAssertEqual(constructions[0].machines, result.machines.map(\.id))
        XCTAssertEqual(constructions[1].outcome, .diagnostic)
        XCTAssertEqual(constructions[1].reason, "`gauge` is shaped like a state machine (Actomaton(…)) but none was read from it: its reducer `gaugeReducer` (Candidates.swift:12) assigns no field of its state `Gauge` that is an enum, a Bool or an optional")
    }
}

extension CandidateShapeTests {
    /// A `switch` over a state property in a method that does not assign it: the machine read from the
    /// property (its rules are in the methods that assign it) is read from the candidate; and a
    /// `StateMachine(…)` construction of a type declared in the inputs gets the machines read from its
    /// members, or says which type it constructs.
    func testCandidatesCoveredByTheMachineOfTheirPropertyOrType() throws {
        let result = try explain("""
        final class Valve {
            enum State { case shut, open, jammed }
            private var state = State.shut
            func turn() { if case .shut = state { state = .open } }
            func seize() { state = .jammed }
            func report() -> String {
                switch state {
                case .shut: return "shut"
                case .open, .jammed: return "not shut"
                }
            }
        }
        final class Pump {
            struct StateMachine {
                enum State { case idle, priming, running }
                var state = State.idle
                mutating func prime() { if case .idle = state { state = .priming } }
                mutating func run() { if case .priming = state { state = .running } }
            }
            struct Counter { var strokes = 0 }
            private var machine = StateMachine()
            func make() -> StateMachine { StateMachine() }
        }
        final class Bellows {
            struct StateMachine { var isOpen = false; mutating func open() { isOpen = true } }
            private var machine = StateMachine()
        }
        """)
        XCTAssertEqual(Set(result.machines.map(\.name)), ["Valve.state", "StateMachine.state"])
        let valve = try XCTUnwrap(result.candidates.first { $0.name == "Valve.state" })
        XCTAssertEqual(valve.outcome, .machine)
        let constructions = result.candidates.filter { $0.shape == "StateMachine(…)" }
        XCTAssertEqual(constructions.map(\.outcome), [.machine, .machine, .diagnostic])
        XCTAssertEqual(constructions[2].reason, "`machine` is shaped like a state machine (StateMachine(…)) but none was read from it: the rules it is built from (its table, mapping, reducer or states) were not found in the given files, and no machine was read from the members of `Bellows.StateMachine` (Candidates.swift:25) either (no enum property or enum type that its methods switch over and change)")
    }

    func testATableIsBuiltByTheConstructionInItsOwnFunction() throws {
        let result = try explain("""
        import Harvest
        enum Bulb { case off, on }
        enum Press { case toggle }
        func firstScenario() {
            let mappings: [Harvester<Press, Bulb>.Mapping] = [ .toggle | .off => .on ]
            let harvester = Harvester(state: .off, inputs: presses, mapping: .reduce(.first, mappings), scheduler: queue)
        }
        func secondScenario() {
            let mappings: [Harvester<Press, Bulb>.Mapping] = [ .toggle | .on => .off ]
            let harvester = Harvester(state: .on, inputs: presses, mapping: .reduce(.first, mappings), scheduler: queue)
        }
        """)
        XCTAssertEqual(result.machines.map(\.initial), ["off", "on"], "each table's own construction gives its initial state")
        let constructions = result.candidates.filter { $0.shape == "Harvester(…)" }
        XCTAssertEqual(constructions.count, 2)
        XCTAssertTrue(constructions.allSatisfy { $0.outcome == .machine && $0.machines.count == 1 })
    }
}

extension CandidateShapeTests {
    func testMachinesOfOneNameInTwoFilesStayTwoWithDistinctIds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "enum Hatch { case shut, open }\nenum Knock { case knock }\n".write(to: dir.appendingPathComponent("Types.swift"), atomically: true, encoding: .utf8)
        for (file, target) in [("First.swift", "open"), ("Second.swift", "shut")] {
            try """
            func step(_ h: Hatch, _ k: Knock) -> Hatch? {
                switch (h, k) {
                case (.shut, .knock): return .\(target)
                default: return nil
                }
            }
            """.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let result = Extractor.extract(paths: [dir.path])
        XCTAssertEqual(result.machines.count, 2, "two functions in two files are two machines, not one with both rule sets")
        XCTAssertEqual(Set(result.machines.map(\.id)).count, 2)
    }
}

final class PartialMachineTests: XCTestCase {
    func testOtherMethodsWritingTheStateAreFollowedAsInputs() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Stage { case waiting, reading, finished }
        enum Chunk { case head, body }
        final class Parser {
            private var stage: Stage = .waiting
            func feed(_ chunk: Chunk) {
                switch (stage, chunk) {
                case (.waiting, .head): stage = .reading
                case (.reading, .body): break
                default: break
                }
            }
            func messageEnded() {
                switch stage {
                case .reading: self.stage = .finished
                default: break
                }
            }
            func reset() { self.restart(to: .waiting) }
            private func restart(to next: Stage) { self.stage = next }
        }
        """)
        let m = try XCTUnwrap(machines.named("Parser.stage"))
        XCTAssertFalse(m.partial)
        XCTAssertEqual(m.inputs, ["head", "body", "messageEnded()", "reset()"])
        XCTAssertTrue(m.transitions.isSuperset(of: ["waiting -head-> reading", "reading -messageEnded()-> finished", "finished -reset()-> waiting"]))
        XCTAssertFalse(m.findingKeys.contains("unreachable_state finished"))
        XCTAssertFalse(m.findingKeys.contains("dead_end_state finished"))
    }

    func testAWriteInAClosureMakesTheMachinePartialAndItsReachabilityNotes() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Link { case down, up, closing, closed }
        enum Signal { case connect }
        final class Channel {
            private var link: Link = .down
            func handle(_ s: Signal) {
                switch (link, s) {
                case (.down, .connect): link = .up
                default: break
                }
            }
            func close() {
                let action = { self.link = .closing }; pending.append(action)
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Channel.link"))
        XCTAssertTrue(m.partial)
        XCTAssertEqual(m.unreadWrites.map(\.line), [12])
        let reachability = m.findings.filter { $0.check == "unreachable_state" || $0.check == "dead_end_state" }
        XCTAssertFalse(reachability.isEmpty)
        XCTAssertTrue(reachability.allSatisfy { $0.severity == .note })
        XCTAssertTrue(diagnostics.contains { $0.location?.line == 12 && $0.message.contains("partial") })
    }

    /// A door whose event method first gives `n` locals a latch chosen by a flag the tool cannot read,
    /// one after the other: 2ⁿ paths that hold different latches reach its `switch`, which has three
    /// cases. (Paths that differ only in their guards would be joined again.)
    func door(conditions n: Int) -> String {
        let flags = (1...n).map { "var flag\($0) = false" }.joined(separator: "\n    ")
        let tests = (1...n).map { "let held\($0): Latch = flag\($0) ? .shut : .open" }.joined(separator: "\n        ")
        return """
        enum Latch { case shut, open }
        enum Knock { case push, pull }
        final class Door {
            private var latch: Latch = .shut
            var tally = 0
            \(flags)
            func handle(_ k: Knock) {
                \(tests)
                switch (latch, k) {
                case (.shut, .push): latch = .open
                case (.open, .pull): latch = .shut
                default: break
                }
            }
        }
        """
    }

    /// Nine conditions in a row, each choosing the latch: 2⁹ paths that reach one of two latches by
    /// different guards. Past 64 at once they are joined by latch, keeping the guards they share (none),
    /// and the machine is whole.
    func testPathsAlikeButForTheirGuardsAreJoinedPastSixtyFour() throws {
        let choices = (1...9).map { "if flag\($0) { latch = .open } else { latch = .shut }" }.joined(separator: "\n        ")
        let flags = (1...9).map { "var flag\($0) = false" }.joined(separator: "\n    ")
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Latch { case shut, open }
        enum Knock { case push, pull }
        final class Door {
            private var latch: Latch = .shut
            \(flags)
            func handle(_ k: Knock) {
                switch (latch, k) {
                case (_, .pull): return
                case (_, .push): break
                }
                \(choices)
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Door.latch"))
        XCTAssertFalse(m.partial)
        XCTAssertEqual(m.transitions, ["shut -push-> open", "open -push-> shut"])
        XCTAssertFalse(diagnostics.contains { $0.message.contains("left out") })
    }

    func testPathsBeyondTheBoundAreLeftOutWithANoteAndTheMachineIsPartial() throws {
        // eleven conditions: 2,048 paths, more than the 1,024 followed at once, from the eleventh (line 28)
        let (machines, diagnostics) = try Fixture.analyze(source: door(conditions: 11))
        let m = try XCTUnwrap(machines.named("Door.latch"))
        XCTAssertTrue(m.transitions.isSuperset(of: ["shut -push-> open", "open -pull-> shut"]))
        XCTAssertTrue(m.partial)
        XCTAssertEqual(m.pathsLeftOut.map(\.line), [28])
        XCTAssertTrue(diagnostics.contains { $0.location?.line == 28 && $0.message.contains("left out") && $0.severity == .note })
        // six are 64 paths, and 192 after the three cases of the switch: all followed
        let (whole, quiet) = try Fixture.analyze(source: door(conditions: 6))
        let n = try XCTUnwrap(whole.named("Door.latch"))
        XCTAssertFalse(n.partial)
        XCTAssertTrue(n.pathsLeftOut.isEmpty)
        XCTAssertFalse(quiet.contains { $0.message.contains("left out") })
    }

    func testMutatingMethodOfTheStateEnumIsFollowed() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Tide { case low, rising, high
            mutating func advance() {
                switch self {
                case .low: self = .rising
                case .rising: self = .high
                case .high: self = .low
                }
            }
        }
        enum Moon { case pull, rest }
        struct Harbour {
            var tide: Tide = .low
            mutating func on(_ m: Moon) {
                switch m {
                case .pull: tide.advance()
                case .rest: break
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Harbour.tide"))
        XCTAssertEqual(m.transitions, ["low -pull-> rising", "rising -pull-> high", "high -pull-> low"])
        XCTAssertEqual(m.findings.filter { $0.severity == .warning }, [])
    }

    func testOverloadedHelperIsChosenByItsLabelsAndNeverReturningCallsEndThePath() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Reel { case empty, loading, spinning }
        enum Lever { case pull }
        final class Slot {
            private var reel: Reel = .empty
            func handle(_ l: Lever) {
                switch (reel, l) {
                case (.empty, .pull): begin(coins: 1, next: .loading)
                default: break
                }
            }
            func begin() {}
            private func begin(coins: Int, next: Reel) { self.reel = next }
            private func loaded() {
                switch reel {
                case .loading: self.reel = .spinning
                case .empty, .spinning: fatalError("not loading")
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Slot.reel"))
        XCTAssertEqual(m.transitions, ["empty -pull-> loading", "loading -loaded()-> spinning"])
        XCTAssertFalse(m.edges.contains { $0.input == "loaded()" && $0.from != "loading" }, "fatalError: no edge")
    }

    func testStateChangedByACallWhoseResultIsKeptAndByAPublicMethodOthersCall() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Gate { case shut, ajar, open
            mutating func nudge() -> Bool {
                switch self {
                case .shut: self = .ajar; return true
                case .ajar: self = .open; return true
                case .open: return false
                }
            }
            mutating func slam() { self = .shut }
        }
        enum Wind { case gust }
        final class Yard {
            private var gate: Gate = .shut
            func on(_ w: Wind) {
                switch w {
                case .gust:
                    let moved = self.gate.nudge()
                    if !moved { close() }
                }
            }
            func close() { self.gate.slam() }
        }
        """)
        let m = try XCTUnwrap(machines.named("Yard.gate"))
        XCTAssertEqual(m.inputs, ["gust", "close()"])
        XCTAssertTrue(m.transitions.isSuperset(of: ["shut -gust-> ajar", "ajar -gust-> open", "open -close()-> shut", "ajar -close()-> shut"]))
        XCTAssertEqual(m.findings.filter { $0.severity == .warning }, [])
    }
}
