import MachineModel

/// A Markdown summary for a pull-request comment: totals, a table per check, and one row per finding.
public enum MarkdownReporter {
    public static func generate(_ report: LintReport) -> String {
        var out = "## machine-viz lint\n\n"
        let total = report.violations.count
        guard total > 0 else { return out + "No findings.\n" }
        let errors = report.count(.error), warnings = report.count(.warning), notes = report.count(.note)
        out += "**\(total) \(total == 1 ? "finding" : "findings")**: \(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note")).\n\n"
        out += "| Check | Severity | Count |\n| --- | --- | ---: |\n"
        var perCheck: [String: (Severity, Int)] = [:]
        for v in report.violations {
            let current = perCheck[v.finding.check]
            perCheck[v.finding.check] = (max(current?.0 ?? v.finding.severity, v.finding.severity), (current?.1 ?? 0) + 1)
        }
        for check in perCheck.keys.sorted() {
            out += "| `\(check)` | \(perCheck[check]!.0.rawValue) | \(perCheck[check]!.1) |\n"
        }
        out += "\n| Severity | Check | Machine | Location | Message |\n| --- | --- | --- | --- | --- |\n"
        for v in report.violations {
            let f = v.finding
            let cells = [
                icon(f.severity) + " " + f.severity.rawValue,
                "`\(f.check)`",
                escape(v.machine ?? ""),
                escape("\(f.location.file):\(f.location.line):\(f.location.column)"),
                escape(LintReport.messageAndWitness(f)),
            ]
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return out
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    static func icon(_ s: Severity) -> String {
        switch s {
        case .error: "🛑"
        case .warning: "⚠️"
        case .note: "ℹ️"
        }
    }

    /// Escapes text for a table cell: Markdown punctuation and `|` get a backslash, HTML's `<`, `>`
    /// and `&` become entities, and line breaks become `<br>` (a raw newline would end the row).
    public static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\", "|", "*", "_", "`", "[", "]", "#", "~": out += "\\" + String(c)
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\r\n", "\r", "\n": out += "<br>"
            default: out.append(c)
            }
        }
        return out
    }
}
