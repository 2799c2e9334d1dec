import Foundation
import MachineAnalysis
import MachineModel

/// What a lint run has to report: the violations left after configuration, suppressions and
/// baseline, and the checks that ran.
public struct LintReport: Sendable {
    public var violations: [Violation]
    public var checks: [CheckDescription]
    public var toolVersion: String

    public init(violations: [Violation], checks: [CheckDescription] = CheckDescription.all, toolVersion: String) {
        self.violations = Violation.sorted(violations)
        self.checks = checks
        self.toolVersion = toolVersion
    }

    /// The message as one line of text: machine, message and witness.
    public static func text(_ v: Violation) -> String {
        (v.machine.map { "\($0): " } ?? "") + messageAndWitness(v.finding)
    }

    /// The message and the witness (the triggers that reach the finding's state), without the machine.
    public static func messageAndWitness(_ f: Finding) -> String {
        f.message + (f.triggers.map { $0.isEmpty ? " (reached at start)" : " (reached by: \($0.joined(separator: " → ")))" } ?? "")
    }

    public func count(_ severity: Severity) -> Int { violations.filter { $0.finding.severity == severity }.count }
}

/// Lint output formats, chosen by identifier (`--reporter NAME`). Each is a pure text writer.
public enum ReporterKind: String, CaseIterable, Sendable {
    case xcode
    case json
    case sarif
    case githubActions = "github-actions"
    case checkstyle
    case markdown
    case junit
    case gitlab

    public var identifier: String { rawValue }

    /// What `--help` and docs/ci.md say about each.
    public var summary: String {
        switch self {
        case .xcode: "file:line:column: warning: message [check_id] (Xcode, editors, most CI logs)"
        case .json: "a JSON array of findings with sorted keys"
        case .sarif: "SARIF 2.1.0 for GitHub code scanning and other SARIF viewers"
        case .githubActions: "::warning workflow commands that annotate a GitHub Actions run"
        case .checkstyle: "Checkstyle XML (Jenkins, GitLab, Danger)"
        case .markdown: "a Markdown summary table for a pull-request comment"
        case .junit: "JUnit XML test report (GitLab, Jenkins, CI dashboards)"
        case .gitlab: "GitLab Code Quality JSON for the merge-request widget"
        }
    }

    public func generate(_ report: LintReport) -> String {
        switch self {
        case .xcode: XcodeReporter.generate(report)
        case .json: JSONReporter.generate(report)
        case .sarif: SARIFReporter.generate(report)
        case .githubActions: GitHubActionsReporter.generate(report)
        case .checkstyle: CheckstyleReporter.generate(report)
        case .markdown: MarkdownReporter.generate(report)
        case .junit: JUnitReporter.generate(report)
        case .gitlab: GitLabReporter.generate(report)
        }
    }
}

enum ReporterJSON {
    /// Sorted keys, two-space pretty printing, no escaped slashes: byte-stable output.
    static func encode<T: Encodable>(_ value: T) -> String {
        guard let data = try? StableJSON.data(value) else { return "" }
        let text = String(decoding: data, as: UTF8.self)
        // Foundation on Linux pretty-prints an empty array as "[\n\n]"
        return isEmptyArray(text) ? "[]\n" : text
    }

    /// Whether JSON text is `[]` with any whitespace around and inside: a look at its first bytes
    /// other than whitespace, not at every character of a long report.
    static func isEmptyArray(_ text: String) -> Bool {
        var rest = text.utf8.lazy.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }.makeIterator()
        return rest.next() == UInt8(ascii: "[") && rest.next() == UInt8(ascii: "]") && rest.next() == nil
    }
}
