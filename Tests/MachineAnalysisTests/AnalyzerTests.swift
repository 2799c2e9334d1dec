import MachineAnalysis
import MachineModel
import XCTest

/// Tiny machines written out by hand, as XState's graph tests do.
final class AnalyzerTests: XCTestCase {
    var nextLine = 10

    func row(_ from: [String], _ inputs: [String], _ target: Target, effect: Effect? = nil, catchAll: Bool = false) -> Rule {
        nextLine += 1
        let pairs = from.flatMap { s in inputs.map { Pair(from: s, input: $0) } }
        return Rule(id: nextLine - 10, location: SourceLocation(file: "T.swift", line: nextLine, column: 1),
                    outcomes: [Outcome(pairs: pairs, target: target, effect: effect)], catchAll: catchAll)
    }

    func machine(_ states: [String], _ inputs: [String], initial: String?, order: RuleOrder, _ rules: [Rule], terminal: [String] = []) -> Machine {
        Analyzer().analyze(Machine(name: "t", dialect: .switchMethod, location: SourceLocation(file: "T.swift", line: 1, column: 1),
                                   states: states, inputs: inputs, initial: initial, rules: rules, order: order, terminal: terminal))
    }

    func keys(_ m: Machine) -> Set<String> { Set(m.findings.map { "\($0.check) \($0.subject)" }) }

    /// A machine of one state has nowhere else to go: its state is no dead end.
    func testAMachineOfOneStateHasNoDeadEnd() {
        let one = machine(["only"], ["poke"], initial: "only", order: .resolved, [row(["only"], ["poke"], .stay)])
        XCTAssertFalse(keys(one).contains("dead_end_state only"))
        let two = machine(["on", "off"], ["poke"], initial: "on", order: .resolved, [row(["on"], ["poke"], .state("off"))])
        XCTAssertTrue(keys(two).contains("dead_end_state off"))
    }

    /// `.response(.success)` and `.response(.failure)` in one rule: one edge per (from, trigger, to),
    /// each with its own target, and no data-dependent target between them.
    func testNestedPatternsKeepTheirOwnTargets() {
        let success = InputPattern.member("response", [.init(.member("success", [.init(.any)]))])
        let failure = InputPattern.member("response", [.init(.member("failure"))])
        let pairs = [Pair(from: "loading", input: "response")]
        let rule = Rule(id: 1, location: SourceLocation(file: "T.swift", line: 3, column: 1), outcomes: [
            Outcome(pairs: pairs, target: .state("loaded"), pattern: success),
            Outcome(pairs: pairs, target: .state("failed"), pattern: failure),
        ])
        let m = machine(["loading", "loaded", "failed"], ["response"], initial: "loading", order: .resolved, [rule])
        XCTAssertEqual(Set(m.edges.map { "\($0.from) -\($0.trigger)-> \($0.to)" }),
                       ["loading -response(.success)-> loaded", "loading -response(.failure)-> failed"])
        XCTAssertEqual(m.edges.map(\.input), ["response", "response"])
        XCTAssertFalse(keys(m).contains("data_dependent_target loading/response"))
        XCTAssertEqual(rule.outcomes(for: m.edges[0]).map(\.target), [.state("loaded")])
    }

    func testReachabilityDeadEndsAndShortestWitness() {
        // a → b → c → d (dead end), a → c shortcut, e unreachable, f terminal
        let m = machine(["a", "b", "c", "d", "e", "f"], ["x", "y", "z"], initial: "a", order: .resolved, [
            row(["a"], ["x"], .state("b")),
            row(["b"], ["x"], .state("c")),
            row(["a"], ["y"], .state("c")),
            row(["c"], ["x"], .state("d")),
            row(["c"], ["z"], .state("f")),
            row(["e"], ["x"], .state("a")),
            row(["d"], ["y"], .stay),
        ], terminal: ["f"])
        XCTAssertEqual(keys(m), ["unreachable_state e", "dead_end_state d"])
        let deadEnd = m.findings.first { $0.check == "dead_end_state" }
        XCTAssertEqual(deadEnd?.witness, ["y", "x"], "shortest: a -y-> c -x-> d")
        XCTAssertEqual(Graph(machine: m).trace(to: "a"), [])
        XCTAssertNil(Graph(machine: m).trace(to: "e"))
    }

    func testFirstMatchOverlapShadowAndWinner() {
        let m = machine(["idle", "armed", "firing"], ["arm", "fire", "reset"], initial: "idle", order: .firstMatch, [
            row(["idle", "armed", "firing"], ["arm"], .state("armed")),
            row(["armed"], ["arm", "fire", "reset"], .state("firing"), catchAll: true),
            row(["firing"], ["reset"], .state("idle")),
            row(["armed"], ["fire"], .state("idle")),
        ])
        XCTAssertEqual(keys(m), ["overlapping_rules armed/arm", "overlapping_rules armed/fire", "shadowed_rule line:14"])
        XCTAssertTrue(m.edges.contains(Edge(from: "armed", input: "arm", to: "armed", rule: 1, noop: true)), "first rule wins")
        XCTAssertFalse(m.edges.contains { $0.from == "armed" && $0.input == "fire" && $0.to == "idle" })
    }

    func testAllMatchKeepsEveryEdgeAndSameTargetsDoNotOverlap() {
        let m = machine(["a", "b", "c"], ["go"], initial: "a", order: .allMatch, [
            row(["a"], ["go"], .state("b")),
            row(["a"], ["go"], .state("c")),
            row(["b"], ["go"], .state("c")),
            row(["b"], ["go"], .state("c")),
        ])
        XCTAssertEqual(keys(m), ["overlapping_rules a/go", "dead_end_state c"])
        XCTAssertEqual(Set(m.edges.map { "\($0.from)>\($0.to)" }), ["a>b", "a>c", "b>c"])
    }

    func testDataDependentTargetsAndRunTimeTargetsKeepStatesReachable() {
        let branching = Rule(id: 1, location: SourceLocation(file: "T.swift", line: 5, column: 1), outcomes: [
            Outcome(pairs: [Pair(from: "a", input: "go")], target: .state("b"), guardText: "ok"),
            Outcome(pairs: [Pair(from: "a", input: "go")], target: .state("c"), guardText: "!(ok)"),
        ])
        let computed = Rule(id: 2, location: SourceLocation(file: "T.swift", line: 6, column: 1), outcomes: [
            Outcome(pairs: [Pair(from: "b", input: "jump")], target: .unknown("next(state)")),
        ])
        let m = machine(["a", "b", "c", "d"], ["go", "jump"], initial: "a", order: .resolved, [branching, computed])
        XCTAssertTrue(keys(m).contains("data_dependent_target a/go"))
        XCTAssertTrue(keys(m).contains("data_dependent_target b/jump"))
        XCTAssertFalse(keys(m).contains("unreachable_state d"), "a run-time target may reach any state")
        XCTAssertFalse(keys(m).contains("dead_end_state b"))
    }

    func testUnusedInputsIgnoreNoOpCatchAllsAndFailuresDrawNothing() {
        let m = machine(["a", "b"], ["go", "ping", "nope"], initial: "a", order: .resolved, [
            row(["a"], ["go"], .state("b")),
            row(["b"], ["go"], .failure),
            row(["a", "b"], ["ping"], .stay, effect: Effect(label: "log")),
            row(["a", "b"], ["nope", "go", "ping"], .stay, catchAll: true),
        ])
        XCTAssertEqual(keys(m), ["unused_input nope", "dead_end_state b"])
        XCTAssertFalse(m.edges.contains { $0.rule == 2 }, "a failed transition is no edge")
        XCTAssertEqual(m.edges.first { $0.rule == 3 }?.noop, false, "a self-loop that starts an effect is not a no-op")
        XCTAssertEqual(m.edges.first { $0.rule == 4 }?.noop, true)
    }

    /// With no initial state nothing is unreachable, but a state some transition enters and nothing
    /// leaves is still a dead end (without a witness).
    func testNoInitialStateMeansNoUnreachableStates() {
        let m = machine(["a", "b", "c"], ["go"], initial: nil, order: .resolved, [row(["a"], ["go"], .state("b"))])
        XCTAssertEqual(keys(m), ["dead_end_state b"])
        XCTAssertNil(m.findings.first?.trace)
    }

    func testAnalysisIsDeterministic() {
        let rules = [row(["a", "b"], ["x"], .state("c")), row(["c"], ["y"], .state("a")), row(["a"], ["x"], .state("b"))]
        let first = machine(["a", "b", "c"], ["x", "y"], initial: "a", order: .firstMatch, rules)
        for _ in 0..<5 {
            XCTAssertEqual(machine(["a", "b", "c"], ["x", "y"], initial: "a", order: .firstMatch, rules), first)
        }
    }
}
