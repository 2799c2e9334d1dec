import MachineModel

/// GitHub Actions workflow commands: `::warning file=F,line=L,col=C,title=T::message`, one per line.
/// Escaping follows GitHub's runner: in the message `%`, `\r` and `\n`; in properties also `:` and `,`.
public enum GitHubActionsReporter {
    public static func generate(_ report: LintReport) -> String {
        let names = Dictionary(report.checks.map { ($0.identifier, $0.name) }, uniquingKeysWith: { a, _ in a })
        return report.violations.map { v in
            let f = v.finding
            let level = switch f.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
            let title = "machine-viz \(f.check)" + (names[f.check].map { " (\($0))" } ?? "")
            let properties = [
                "file=\(escapeProperty(f.location.file))",
                "line=\(f.location.line)",
                "col=\(f.location.column)",
                "title=\(escapeProperty(title))",
            ].joined(separator: ",")
            return "::\(level) \(properties)::\(escapeData(LintReport.text(v) + " [\(f.check)]"))\n"
        }.joined()
    }

    /// Message text: `%` first, then the line breaks.
    public static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Property values: as data, plus `:` and `,`.
    public static func escapeProperty(_ s: String) -> String {
        escapeData(s)
            .replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}
