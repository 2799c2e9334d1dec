import Foundation
import MachineModel

/// Applies `// machine-viz:disable…` commands to lint violations, and reports the commands that
/// suppressed nothing as `unused_suppression` findings (SwiftLint's "superfluous disable command").
public enum SuppressionFilter {
    public struct Outcome: Sendable {
        /// Violations no command covers.
        public var kept: [Violation]
        /// Violations a command covers.
        public var suppressed: [Violation]
        /// One finding per (command, check) that covered nothing, or that names an unknown check.
        public var unused: [Finding]
    }

    /// - Parameters:
    ///   - inactiveChecks: checks turned off by configuration; a command naming one is not reported
    ///     as unused (it has nothing to match while the check is off).
    public static func apply(_ suppressions: [Suppression], to violations: [Violation],
                             inactiveChecks: Set<String> = []) -> Outcome {
        let known = Set(Check.allCases.map(\.rawValue))
        var used = Set<[String]>()  // [suppression index, check]
        var kept: [Violation] = []
        var suppressed: [Violation] = []
        for violation in violations {
            let f = violation.finding
            var covered = false
            for (i, s) in suppressions.enumerated() where s.covers(check: f.check, at: f.location) {
                covered = true
                used.insert([String(i), s.checks.contains(f.check) ? f.check : "all"])
            }
            if covered { suppressed.append(violation) } else { kept.append(violation) }
        }
        var unused: [Finding] = []
        for (i, s) in suppressions.enumerated() {
            for check in s.checks.uniqued() {
                let message: String
                if check != "all" && !known.contains(check) {
                    message = "'\(check)' is not a machine-viz check, so machine-viz:\(s.scope.rawValue) \(check) suppresses nothing; checks: \(Check.allCases.map(\.rawValue).joined(separator: ", "))"
                } else if inactiveChecks.contains(check) || used.contains([String(i), check]) {
                    continue
                } else {
                    let target = s.line.map { "on line \($0)" } ?? "in this file"
                    message = "machine-viz:\(s.scope.rawValue) \(check) suppresses nothing: no \(check == "all" ? "finding" : "'\(check)' finding") \(target); remove the comment"
                }
                let file = URL(fileURLWithPath: s.location.file).lastPathComponent
                unused.append(Finding(check: Check.unusedSuppression.rawValue, severity: Check.unusedSuppression.defaultSeverity,
                                      message: message, location: s.location,
                                      subject: "\(file): machine-viz:\(s.scope.rawValue) \(check)"))
            }
        }
        return Outcome(kept: kept, suppressed: suppressed, unused: unused)
    }
}
