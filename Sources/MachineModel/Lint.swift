import Foundation

/// A `// machine-viz:disable…` command read from a Swift comment.
///
/// `disable:next` applies to the next line that holds code, `disable:this` to the comment's own line,
/// `disable:previous` to the last line of code before it, `disable` to the whole file.
public struct Suppression: Codable, Hashable, Sendable {
    public enum Scope: String, Codable, Hashable, Sendable, CaseIterable {
        case file = "disable"
        case next = "disable:next"
        case this = "disable:this"
        case previous = "disable:previous"
    }

    public var scope: Scope
    /// Check ids as written; `all` stands for every check.
    public var checks: [String]
    /// The text after ` - `, if any.
    public var reason: String?
    /// Where the comment is.
    public var location: SourceLocation
    /// The line the command applies to; nil for the whole file.
    public var line: Int?

    public init(scope: Scope, checks: [String], reason: String? = nil, location: SourceLocation, line: Int?) {
        self.scope = scope
        self.checks = checks
        self.reason = reason
        self.location = location
        self.line = line
    }

    /// Whether the command covers a finding of `check` at `location`.
    public func covers(check: String, at location: SourceLocation) -> Bool {
        guard location.file == self.location.file, checks.contains("all") || checks.contains(check) else { return false }
        return line == nil || line == location.line
    }
}

/// A finding as lint reports it: with the machine it belongs to (nil for findings about the
/// configuration or comments, such as `unused_suppression`) and a key that stays the same when
/// lines move (used by baselines and SARIF fingerprints).
public struct Violation: Codable, Hashable, Sendable {
    public var machine: String?
    public var finding: Finding
    public var fingerprint: String

    public init(machine: String?, finding: Finding, fingerprint: String? = nil) {
        self.machine = machine
        self.finding = finding
        self.fingerprint = fingerprint ?? "\(machine ?? "")|\(finding.check)|\(finding.subject)"
    }

    /// Location, then check, subject and machine: the order every reporter prints.
    public static func sorted(_ violations: [Violation]) -> [Violation] {
        violations.sorted {
            ($0.finding.location, $0.finding.check, $0.finding.subject, $0.machine ?? "")
                < ($1.finding.location, $1.finding.check, $1.finding.subject, $1.machine ?? "")
        }
    }
}
