import Foundation
import MachineAnalysis
import MachineModel
import MachineRendering
import XCTest

/// SwiftLint-style: every check's examples, run through the real extractor and analyser.
final class CheckExamplesTests: XCTestCase {
    /// Checks whose examples use a dialect this build does not extract yet. Their triggering examples
    /// must still produce nothing; once the dialect lands this test fails and the entry must go.
    static let notYetExtracted: Set<Check> = []

    func testEveryCheckIsDescribedWithExamples() {
        XCTAssertEqual(CheckDescription.all.map(\.identifier), Check.allCases.map(\.rawValue))
        for d in CheckDescription.all {
            XCTAssertFalse(d.name.isEmpty || d.summary.isEmpty || d.rationale.isEmpty, d.identifier)
            XCTAssertFalse(d.triggeringExamples.isEmpty, "\(d.identifier) has no triggering example")
            XCTAssertFalse(d.nonTriggeringExamples.isEmpty, "\(d.identifier) has no non-triggering example")
            for example in d.triggeringExamples {
                XCTAssertFalse(LintHarness.markers(example).positions.isEmpty, "\(d.identifier): a triggering example without ↓")
            }
        }
    }

    func testTriggeringExamplesTriggerWhereMarked() throws {
        for d in CheckDescription.all {
            for (i, example) in d.triggeringExamples.enumerated() {
                let (source, expected) = LintHarness.markers(example)
                let run = try LintHarness.lint(source)
                let found = run.violations.filter { $0.finding.check == d.identifier }
                    .map { LintHarness.Position(line: $0.finding.location.line, column: $0.finding.location.column) }
                if Self.notYetExtracted.contains(d.check) {
                    XCTAssertEqual(found, [], "\(d.identifier) triggers now: remove it from notYetExtracted")
                    continue
                }
                XCTAssertFalse(run.machines.isEmpty, "\(d.identifier) example \(i): no machine extracted; \(run.diagnostics)")
                XCTAssertEqual(Set(found), Set(expected),
                               "\(d.identifier) example \(i): findings at \(found), markers at \(expected); all: \(run.violations.map { "\($0.finding.check)@\($0.finding.location.line):\($0.finding.location.column)" })")
                XCTAssertEqual(found.count, expected.count, "\(d.identifier) example \(i): one finding per marker")
            }
        }
    }

    /// The trace the docs show for a check is the one the analyser gives for the first example.
    func testDocumentedTracesAreTheAnalysersTraces() throws {
        for d in CheckDescription.all {
            guard let documented = d.trace else { continue }
            let run = try LintHarness.lint(LintHarness.markers(d.triggeringExamples[0]).source)
            let finding = run.violations.first { $0.finding.check == d.identifier }?.finding
            XCTAssertEqual(finding?.trace.map(CheckDescription.describe), documented, d.identifier)
        }
    }

    func testNonTriggeringExamplesDoNotTrigger() throws {
        for d in CheckDescription.all {
            for (i, example) in d.nonTriggeringExamples.enumerated() {
                let run = try LintHarness.lint(example)
                if !Self.notYetExtracted.contains(d.check) {
                    XCTAssertFalse(run.machines.isEmpty, "\(d.identifier) example \(i): no machine extracted; \(run.diagnostics)")
                }
                let found = run.violations.filter { $0.finding.check == d.identifier }
                XCTAssertEqual(found.map(\.finding.message), [], "\(d.identifier) non-triggering example \(i) triggers")
            }
        }
    }
}

final class ChecksDocumentationTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// docs/checks.md is generated from the descriptions; re-record with MACHINE_VIZ_RECORD=1.
    func testChecksDocumentIsUpToDate() throws {
        let url = Self.packageRoot.appendingPathComponent("docs/checks.md")
        let generated = CheckDocumentation.markdown()
        if ProcessInfo.processInfo.environment["MACHINE_VIZ_RECORD"] == "1" {
            try Data(generated.utf8).write(to: url)
            return
        }
        let current = String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
        if current != generated {
            let a = current.components(separatedBy: "\n"), b = generated.components(separatedBy: "\n")
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            XCTFail("""
                docs/checks.md is stale (run MACHINE_VIZ_RECORD=1 swift test --filter ChecksDocumentationTests); first difference at line \(first + 1):
                - \(first < a.count ? a[first] : "(end of file)")
                + \(first < b.count ? b[first] : "(end of file)")
                """)
        }
        for d in CheckDescription.all { XCTAssertTrue(current.contains("## `\(d.identifier)`"), d.identifier) }
    }
}
