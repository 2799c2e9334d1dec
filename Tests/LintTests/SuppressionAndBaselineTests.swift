import Foundation
import MachineAnalysis
import MachineModel
import XCTest

final class SuppressionTests: XCTestCase {
    static let door = """
        enum Door {
            case closed, open
            // machine-viz:disable:next unreachable_state - kept for the next firmware
            case broken
            case welded // machine-viz:disable:this dead_end_state
        }
        enum DoorInput { case push, pull, weld }

        let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
            .push | .closed => .open,
            .pull | .open   => .closed,
            .weld | .closed => .welded,
        ]
        let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
        """

    func testDisableNextAboveAnEnumCaseSuppressesItsStateFinding() throws {
        let plain = try LintHarness.lint(Self.door.replacingOccurrences(of: "machine-viz:", with: "note:"))
        XCTAssertEqual(plain.violations.map(\.finding.check).sorted(), ["dead_end_state", "unreachable_state"],
                       "without the comments both findings are there")
        let run = try LintHarness.lint(Self.door)
        XCTAssertEqual(run.violations.map(\.finding.check), [], "\(run.violations)")
        XCTAssertEqual(run.suppressed.map(\.finding.subject).sorted(), ["broken", "welded"])
    }

    func testUnusedSuppressionsAreReportedAtTheComment() throws {
        let source = Self.door.replacingOccurrences(of: "case welded // machine-viz:disable:this dead_end_state",
                                                    with: "case welded // machine-viz:disable:this dead_end_state, shadowed_rule, dead_ends")
            + "\n// machine-viz:disable overlapping_rules\n"
        let run = try LintHarness.lint(source)
        let unused = run.violations.filter { $0.finding.check == "unused_suppression" }
        XCTAssertEqual(unused.count, 3, "\(unused.map(\.finding.message))")
        XCTAssertEqual(unused.map(\.finding.location.line), [5, 5, 15])
        XCTAssertTrue(unused.allSatisfy { $0.machine == nil && $0.finding.severity == .warning })
        XCTAssertTrue(unused[0].finding.message.contains("'dead_ends' is not a machine-viz check") || unused[1].finding.message.contains("'dead_ends' is not a machine-viz check"))
        XCTAssertTrue(unused.contains { $0.finding.message.contains("disable:this shadowed_rule suppresses nothing") })
        XCTAssertTrue(unused.contains { $0.finding.message.contains("disable overlapping_rules suppresses nothing") && $0.finding.message.contains("this file") })
        XCTAssertEqual(run.violations.count, 3, "the dead end is still suppressed")
    }

    func testInactiveChecksAreNotReportedAsUnused() {
        let s = Suppression(scope: .file, checks: ["unused_input"], location: SourceLocation(file: "a.swift", line: 1, column: 1), line: nil)
        XCTAssertEqual(SuppressionFilter.apply([s], to: []).unused.count, 1)
        XCTAssertEqual(SuppressionFilter.apply([s], to: [], inactiveChecks: ["unused_input"]).unused.count, 0)
    }

    func testDisableAllCoversEveryCheckInTheFile() throws {
        let run = try LintHarness.lint("// machine-viz:disable all - legacy\n" + Self.door.replacingOccurrences(of: "machine-viz:", with: "note:"))
        XCTAssertEqual(run.violations.map(\.finding.check), [])
        XCTAssertEqual(run.suppressed.count, 2)
    }
}

final class BaselineTests: XCTestCase {
    func violation(_ machine: String, _ check: String, _ subject: String, line: Int) -> Violation {
        Violation(machine: machine, finding: Finding(check: check, severity: .warning, message: "m \(line)",
                                                     location: SourceLocation(file: "a.swift", line: line, column: 1), subject: subject))
    }

    func testMatchesByMachineCheckAndSubjectNotLine() throws {
        let old = [violation("door", "dead_end_state", "welded", line: 5), violation("door", "unreachable_state", "broken", line: 4)]
        let baseline = try Baseline.decode(try Baseline(violations: old).jsonData())
        let moved = [violation("door", "dead_end_state", "welded", line: 50), violation("door", "unreachable_state", "broken", line: 40)]
        XCTAssertEqual(baseline.newViolations(in: moved), [])
        let fresh = violation("door", "dead_end_state", "jammed", line: 6)
        let otherMachine = violation("lock", "dead_end_state", "welded", line: 5)
        XCTAssertEqual(baseline.newViolations(in: moved + [fresh, otherMachine]), [fresh, otherMachine])
    }

    func testEachEntryAbsorbsOneFinding() {
        let v = violation("door", "dead_end_state", "welded", line: 5)
        XCTAssertEqual(Baseline(violations: [v]).newViolations(in: [v, v]).count, 1)
    }

    func testFileIsSortedAndStable() throws {
        let a = violation("door", "dead_end_state", "welded", line: 5), b = violation("alarm", "unused_input", "x", line: 1)
        let one = String(decoding: try Baseline(violations: [a, b]).jsonData(), as: UTF8.self)
        let two = String(decoding: try Baseline(violations: [b, a]).jsonData(), as: UTF8.self)
        XCTAssertEqual(one, two)
        XCTAssertTrue(one.contains("\"version\" : 1"), one)
        XCTAssertLessThan(one.range(of: "alarm")!.lowerBound, one.range(of: "door")!.lowerBound)
    }

    func testShadowedRulesAreKeyedByTheRuleNotTheLine() throws {
        let source = """
            enum Light { case red, green, flashing }
            enum LightEvent { case timer, fault, reset }

            struct Junction {
                var light: Light = .red

                mutating func handle(_ event: LightEvent) {
                    switch (light, event) {
                    case (.red, .timer): light = .green
                    case (.green, .timer): light = .red
                    case (.flashing, .reset): light = .red
                    case (_, .fault): light = .flashing
                    case (.red, .fault): light = .red
                    default: break
                    }
                }
            }
            """
        let before = try LintHarness.lint(source).violations.filter { $0.finding.check == "shadowed_rule" }
        let after = try LintHarness.lint(source.replacingOccurrences(of: "struct Junction {", with: "\n\n// moved\nstruct Junction {"))
            .violations.filter { $0.finding.check == "shadowed_rule" }
        XCTAssertEqual(before.count, 1)
        XCTAssertNotEqual(before.first?.finding.subject, after.first?.finding.subject, "the subject names the line")
        XCTAssertEqual(before.first?.fingerprint, after.first?.fingerprint)
        XCTAssertEqual(before.first?.fingerprint, "Junction.light|shadowed_rule|shadowed-rule#1")
        XCTAssertEqual(Baseline(violations: before).newViolations(in: after), [])
    }

    func testShadowedTableRowsAreKeyedByTheirPairs() throws {
        let source = """
            enum Phase { case idle, armed, firing }
            enum Signal { case arm, fire, reset }

            let phaseMappings: [Automaton<Signal, Phase>.Mapping] = [
                .arm   | any    => .armed,
                any    | .armed => .firing,
                .reset | .firing => .idle,
                .fire  | .armed => .idle,
            ]
            let phases = Automaton(state: .idle, input: signals, mapping: reduce(phaseMappings))
            """
        let shadowed = try LintHarness.lint(source).violations.filter { $0.finding.check == "shadowed_rule" }
        XCTAssertEqual(shadowed.map(\.fingerprint), ["phases|shadowed_rule|rule:armed/fire->idle"])
    }
}
