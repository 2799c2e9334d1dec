import MachineAnalysis
import MachineModel
import XCTest

final class TransitionCoverTests: XCTestCase {
    let here = SourceLocation(file: "T.swift", line: 1, column: 1)

    func rule(_ id: Int, _ from: String, _ input: String, _ to: String, effect: Effect? = nil) -> Rule {
        Rule(id: id, location: SourceLocation(file: "T.swift", line: 10 + id, column: 1),
             outcomes: [Outcome(pairs: [Pair(from: from, input: input)], target: .state(to), effect: effect)])
    }

    func analysed(_ states: [String], _ inputs: [String], initial: String?, _ rules: [Rule]) -> Machine {
        Analyzer().analyze(Machine(name: "m", dialect: .switchMethod, location: here, states: states, inputs: inputs,
                                   initial: initial, rules: rules, order: .resolved))
    }

    /// Replays a sequence from the initial state over the machine's edges: every step must be an edge.
    func replay(_ m: Machine, _ steps: [TraceStep]) -> Bool {
        var state = m.initial!
        for step in steps {
            guard m.edges.contains(where: { $0.from == state && $0.input == step.input && $0.to == step.state }) else { return false }
            state = step.state
        }
        return true
    }

    func testSequencesStartAtTheInitialStateAndTakeEveryTransition() {
        // idle -start-> running -pause-> paused -resume-> running -stop-> idle; paused -stop-> idle; lost -x-> idle (unreachable)
        let m = analysed(["idle", "running", "paused", "lost"], ["start", "pause", "resume", "stop", "x"], initial: "idle", [
            rule(1, "idle", "start", "running"),
            rule(2, "running", "pause", "paused"),
            rule(3, "paused", "resume", "running"),
            rule(4, "running", "stop", "idle"),
            rule(5, "paused", "stop", "idle"),
            rule(6, "lost", "x", "idle"),
            rule(7, "idle", "x", "idle"),  // a no-op self-loop: not a transition worth a test
        ])
        let cover = TransitionCover(machine: m)
        for s in cover.sequences { XCTAssertTrue(replay(m, s.steps), "\(s.steps.map(\.input))") }
        let taken = Set(cover.sequences.flatMap(\.edges))
        let expected = Set(m.edges.indices.filter { !m.edges[$0].noop && m.edges[$0].from != "lost" })
        XCTAssertEqual(taken, expected)
        XCTAssertEqual(cover.unreachable.map { m.edges[$0].from }, ["lost"])
        XCTAssertEqual(cover.covered, 5)
        // shortest path to each source first, in edge order; each sequence adds something new
        XCTAssertEqual(cover.sequences.map { $0.steps.map(\.input) }, [["start"], ["start", "pause"], ["start", "pause", "resume"],
                                                                        ["start", "stop"], ["start", "pause", "stop"]])
        XCTAssertEqual(TransitionCover(machine: m), cover, "deterministic")
    }

    func testStepsSentByEffectsAreMarked() {
        let m = analysed(["idle", "loading", "done"], ["load", "loaded"], initial: "idle", [
            rule(1, "idle", "load", "loading", effect: Effect(label: "fetch", emits: ["loaded"])),
            rule(2, "loading", "loaded", "done"),
        ])
        let cover = TransitionCover(machine: m)
        XCTAssertEqual(cover.sequences.last?.steps.map(\.by), [.user, .effect])
    }

    func testNoInitialStateNoSequences() {
        let m = analysed(["a", "b"], ["go"], initial: nil, [rule(1, "a", "go", "b")])
        let cover = TransitionCover(machine: m)
        XCTAssertEqual(cover.sequences, [])
        XCTAssertEqual(cover.unreachable.count, 1)
    }
}

final class ProductExplorerTests: XCTestCase {
    let here = SourceLocation(file: "F.swift", line: 1, column: 1)

    func at(_ line: Int) -> SourceLocation { SourceLocation(file: "F.swift", line: line, column: 5) }

    /// phase: idle/loading/done × isLoading: false/true. `load` is guarded by `!isLoading`; `cancel`
    /// forgets to clear `isLoading`.
    func feature(cancelClears: Bool) -> ProductMachine {
        ProductMachine(
            name: "Feature", dialect: .tca, location: here,
            fields: [.init(name: "phase", states: ["idle", "loading", "done"], initial: "idle"),
                     .init(name: "isLoading", states: ["false", "true"], initial: "false")],
            inputs: ["load", "finish", "cancel"],
            rules: [
                .init(location: at(10), inputs: ["load"], requires: ["isLoading": ["false"]], writes: ["phase": "loading", "isLoading": "true"]),
                .init(location: at(14), inputs: ["finish"], requires: ["isLoading": ["true"]], writes: ["phase": "done", "isLoading": "false"]),
                .init(location: at(18), inputs: ["cancel"], writes: cancelClears ? ["phase": "idle", "isLoading": "false"] : ["phase": "idle"]),
            ])
    }

    func testGuardsOnOtherFieldsAreEvaluated() throws {
        let result = ProductExplorer().explore(feature(cancelClears: true), invariants: [try Invariant("isLoading implies phase == .loading")])
        XCTAssertEqual(Set(result.machine.states), ["phase=idle, isLoading=false", "phase=loading, isLoading=true", "phase=done, isLoading=false"])
        XCTAssertEqual(result.machine.initial, "phase=idle, isLoading=false")
        // `finish` needs isLoading: never from idle
        XCTAssertFalse(result.machine.edges.contains { $0.from == "phase=idle, isLoading=false" && $0.input == "finish" })
        XCTAssertEqual(result.findings, [])
        XCTAssertNil(result.budgetMessage)
    }

    func testInvariantViolationHasTheShortestTrace() throws {
        let result = ProductExplorer().explore(feature(cancelClears: false), invariants: [try Invariant("isLoading implies phase == .loading")])
        XCTAssertEqual(result.findings.count, 1)
        let f = try XCTUnwrap(result.findings.first)
        XCTAssertEqual(f.check, "invariant_violation")
        XCTAssertEqual(f.subject, "isLoading implies phase == .loading")
        XCTAssertEqual(f.trace?.map(\.input), ["load", "cancel"])
        XCTAssertEqual(f.trace?.last?.state, "phase=idle, isLoading=true")
        XCTAssertEqual(f.location, at(18), "located at the branch that made the combination")
        XCTAssertTrue(f.message.contains("phase=idle, isLoading=true"), f.message)
    }

    func testBudgetIsSaidNotSilent() throws {
        let result = ProductExplorer(budget: 2).explore(feature(cancelClears: false), invariants: [])
        XCTAssertEqual(result.machine.states.count, 2)
        XCTAssertNotNil(result.budgetMessage)
        XCTAssertTrue(result.budgetMessage!.contains("stopped after 2 combinations"), result.budgetMessage!)
    }

    func testFieldWithoutInitialValueIsNotExplored() {
        var p = feature(cancelClears: true)
        p.fields[0].initial = nil
        let result = ProductExplorer().explore(p, invariants: [])
        XCTAssertNotNil(result.unexplored)
        XCTAssertEqual(result.machine.states, [])
    }

    func testInvariantsParseAndEvaluate() throws {
        let i = try Invariant("isLoading && !(phase == .done) implies phase != .idle || alert == nil")
        XCTAssertEqual(i.fields, ["isLoading", "phase", "alert"])
        XCTAssertTrue(i.holds(in: ["isLoading": "false", "phase": "idle", "alert": "some"]))
        XCTAssertTrue(i.holds(in: ["isLoading": "true", "phase": "loading", "alert": "some"]))
        XCTAssertFalse(i.holds(in: ["isLoading": "true", "phase": "idle", "alert": "some"]))
        XCTAssertTrue(i.holds(in: ["isLoading": "true", "phase": "idle", "alert": "nil"]))
        // `a implies b implies c` is `a implies (b implies c)`
        let chained = try Invariant("a => b => c")
        XCTAssertTrue(chained.holds(in: ["a": "true", "b": "false", "c": "false"]))
        for bad in ["", "isLoading implies", "phase == ", "(a", "a b", "a == 3", "a & b"] {
            XCTAssertThrowsError(try Invariant(bad), bad)
        }
    }

    func testInvariantsAreCheckedAgainstTheFields() throws {
        let p = feature(cancelClears: true)
        XCTAssertNil(ProductExplorer.check(try Invariant("isLoading implies phase == .loading"), against: p))
        XCTAssertNotNil(ProductExplorer.check(try Invariant("spinning implies phase == .loading"), against: p))
        XCTAssertNotNil(ProductExplorer.check(try Invariant("isLoading implies phase == .fetching"), against: p))
    }
}
