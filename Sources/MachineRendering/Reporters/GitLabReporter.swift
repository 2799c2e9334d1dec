import MachineModel

/// GitLab Code Quality (a JSON array of Code Climate issues) for the merge-request widget:
/// `artifacts: reports: codequality: machine-viz.json`. Severities: error → critical,
/// warning → minor, note → info. The fingerprint GitLab uses to tell issues apart is the finding's
/// line-independent key (machine, check, subject), made unique by file and position when two
/// findings share it; it is a hex FNV-1a hash, so the output is byte-stable.
public enum GitLabReporter {
    struct Issue: Encodable {
        struct Location: Encodable {
            struct Lines: Encodable { var begin: Int }
            var path: String
            var lines: Lines
        }
        var type = "issue"
        var check_name: String
        var description: String
        var categories: [String]
        var severity: String
        var fingerprint: String
        var location: Location
    }

    public static func generate(_ report: LintReport) -> String {
        var counts: [String: Int] = [:]
        for v in report.violations { counts[v.fingerprint, default: 0] += 1 }
        let issues = report.violations.map { v -> Issue in
            let f = v.finding
            let key = counts[v.fingerprint]! > 1 ? "\(v.fingerprint)|\(f.location.file)|\(f.location.line)|\(f.location.column)" : v.fingerprint
            let severity = switch f.severity {
            case .error: "critical"
            case .warning: "minor"
            case .note: "info"
            }
            return Issue(check_name: "machine-viz.\(f.check)", description: "\(LintReport.text(v)) [\(f.check)]",
                         categories: ["Bug Risk"], severity: severity, fingerprint: fnv1a64(key),
                         location: .init(path: f.location.file, lines: .init(begin: f.location.line)))
        }
        return ReporterJSON.encode(issues)
    }
}
