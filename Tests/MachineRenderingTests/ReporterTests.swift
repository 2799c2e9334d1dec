import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MachineAnalysis
import MachineModel
import MachineRendering
import XCTest

final class ReporterTests: XCTestCase {
    /// Findings with everything a reporter has to escape: `%`, `,`, `:`, line breaks, `|`, XML and
    /// Markdown specials, a path with a space and a comma, a finding without a machine, all severities.
    static let report: LintReport = {
        let door = "Sources/Door.swift"
        let odd = "Sources/My Machines, v2/Odd.swift"
        let violations = [
            Violation(machine: "lockMappings", finding: Finding(
                check: "dead_end_state", severity: .warning,
                message: "state 'servicing' is reachable but no input leads out of it; mark it terminal if that is intended",
                location: SourceLocation(file: door, line: 7, column: 5), subject: "servicing", trace: [TraceStep(input: "service", trigger: "service(.full)", state: "servicing")])),
            Violation(machine: "lockMappings", finding: Finding(
                check: "unreachable_state", severity: .error,
                message: "state 'jammed' is declared but no sequence of inputs from 'locked' reaches it",
                location: SourceLocation(file: door, line: 6, column: 5), subject: "jammed")),
            Violation(machine: "lockMappings", finding: Finding(
                check: "unused_input", severity: .note,
                message: "input 'service' is declared but no rule handles it in any state",
                location: SourceLocation(file: door, line: 12, column: 10), subject: "service")),
            Violation(machine: "Odd<T>.phase", finding: Finding(
                check: "overlapping_rules", severity: .warning,
                message: "100% odd: a|b <tag> & \"quotes\" 'single', *stars* _under_ `code` [link]\nsecond line\r\nthird: yes, really",
                location: SourceLocation(file: odd, line: 3, column: 1), subject: "armed/arm", trace: [])),
            Violation(machine: nil, finding: Finding(
                check: "unused_suppression", severity: .warning,
                message: "machine-viz:disable:next dead_end_state suppresses nothing: no 'dead_end_state' finding on line 9; remove the comment",
                location: SourceLocation(file: door, line: 8, column: 5), subject: "Door.swift: machine-viz:disable:next dead_end_state")),
        ]
        return LintReport(violations: violations, toolVersion: "0.1.0")
    }()

    static let empty = LintReport(violations: [], toolVersion: "0.1.0")

    func testXcode() { Golden.assertMatches(ReporterKind.xcode.generate(Self.report), "lint.xcode.txt") }
    func testJSON() { Golden.assertMatches(ReporterKind.json.generate(Self.report), "lint.json") }
    func testSARIF() { Golden.assertMatches(ReporterKind.sarif.generate(Self.report), "lint.sarif") }
    func testGitHubActions() { Golden.assertMatches(ReporterKind.githubActions.generate(Self.report), "lint.github-actions.txt") }
    func testCheckstyle() { Golden.assertMatches(ReporterKind.checkstyle.generate(Self.report), "lint.checkstyle.xml") }
    func testMarkdown() { Golden.assertMatches(ReporterKind.markdown.generate(Self.report), "lint.markdown.md") }
    func testJUnit() { Golden.assertMatches(ReporterKind.junit.generate(Self.report), "lint.junit.xml") }
    func testGitLab() { Golden.assertMatches(ReporterKind.gitlab.generate(Self.report), "lint.gitlab.json") }

    func testJUnitIsWellFormedXMLWithOneCasePerFinding() throws {
        let xml = try XMLDocument(data: Data(ReporterKind.junit.generate(Self.report).utf8))
        XCTAssertEqual(try xml.nodes(forXPath: "//testcase").count, 5)
        XCTAssertEqual(try xml.nodes(forXPath: "//failure").count, 4, "errors and warnings fail")
        XCTAssertEqual(try xml.nodes(forXPath: "//skipped").count, 1, "the note does not")
        XCTAssertEqual(try xml.nodes(forXPath: "/testsuites/testsuite").count, 2, "one suite per file")
        let clean = try XMLDocument(data: Data(ReporterKind.junit.generate(Self.empty).utf8))
        XCTAssertEqual(try clean.nodes(forXPath: "//testcase").count, 1)
        XCTAssertEqual(try clean.nodes(forXPath: "//failure").count, 0)
    }

    func testGitLabIssuesHaveUniqueFingerprintsAndKnownSeverities() throws {
        let issues = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ReporterKind.gitlab.generate(Self.report).utf8)) as? [[String: Any]])
        XCTAssertEqual(issues.count, 5)
        XCTAssertEqual(Set(issues.compactMap { $0["fingerprint"] as? String }).count, 5)
        XCTAssertEqual(issues.compactMap { $0["severity"] as? String }.sorted(), ["critical", "info", "minor", "minor", "minor"])
        // two findings with one key (same machine, check and subject) still get two fingerprints
        let twice = LintReport(violations: [Self.report.violations[0], {
            var v = Self.report.violations[0]
            v.finding.location.line += 10
            return v
        }()], toolVersion: "0.1.0")
        let prints = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ReporterKind.gitlab.generate(twice).utf8)) as? [[String: Any]])
            .compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(Set(prints).count, 2)
    }

    func testEmptyReports() {
        for kind in ReporterKind.allCases {
            Golden.assertMatches(kind.generate(Self.empty), "lint-empty.\(kind.rawValue).txt")
        }
    }

    func testEveryReporterIsDeterministicAndIgnoresInputOrder() {
        let shuffled = LintReport(violations: Self.report.violations.reversed(), toolVersion: "0.1.0")
        for kind in ReporterKind.allCases {
            XCTAssertEqual(kind.generate(Self.report), kind.generate(shuffled), kind.rawValue)
        }
    }

    func testJSONAndSARIFParse() throws {
        for kind in [ReporterKind.json, .sarif] {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(kind.generate(Self.report).utf8)), kind.rawValue)
        }
        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ReporterKind.sarif.generate(Self.report).utf8)) as? [String: Any])
        XCTAssertEqual(sarif["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((sarif["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, Check.allCases.map(\.rawValue), "one rule per check id, in order")
        for rule in rules {
            let help = try XCTUnwrap(rule["help"] as? [String: Any])
            XCTAssertFalse((help["text"] as? String ?? "").isEmpty)
        }
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 5)
        for result in results {
            let id = try XCTUnwrap(result["ruleId"] as? String)
            XCTAssertEqual(rules[try XCTUnwrap(result["ruleIndex"] as? Int)]["id"] as? String, id)
        }
    }

    func testGitHubActionsEscaping() {
        XCTAssertEqual(GitHubActionsReporter.escapeData("100%\r\nnext: a,b"), "100%25%0D%0Anext: a,b")
        XCTAssertEqual(GitHubActionsReporter.escapeProperty("a:b,c%\n"), "a%3Ab%2Cc%25%0A")
        let lines = ReporterKind.githubActions.generate(Self.report).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 6, "one line per finding, each ends in a newline")
        XCTAssertTrue(lines.allSatisfy { $0.isEmpty || $0.hasPrefix("::") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("::notice ") }, "notes are ::notice")
        XCTAssertTrue(lines.contains { $0.hasPrefix("::error ") })
    }

    func testCheckstyleAndMarkdownEscaping() {
        XCTAssertEqual(CheckstyleReporter.escape("a<b>&\"c'\n\u{1}"), "a&lt;b&gt;&amp;&quot;c&apos;&#10;\u{FFFD}")
        XCTAssertEqual(MarkdownReporter.escape("a|b\nc<d>&_*`"), "a\\|b<br>c&lt;d&gt;&amp;\\_\\*\\`")
        let table = ReporterKind.markdown.generate(Self.report)
        for row in table.split(separator: "\n") where row.hasPrefix("| ") {
            // Every row of the findings table has exactly six unescaped pipes (five cells).
            let unescaped = row.indices.filter { row[$0] == "|" && ($0 == row.startIndex || row[row.index(before: $0)] != "\\") }
            XCTAssertTrue(unescaped.count == 6 || unescaped.count == 4, "row breaks the table: \(row)")
        }
    }
}
