import MachineModel

/// `file:line:column: warning: machine: message [check_id]`, the format Xcode and most editors and CI
/// log parsers turn into annotations.
public enum XcodeReporter {
    public static func generate(_ report: LintReport) -> String {
        report.violations.map { v in
            let f = v.finding
            let text = LintReport.text(v).replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            return "\(f.location.file):\(f.location.line):\(f.location.column): \(f.severity.rawValue): \(text) [\(f.check)]\n"
        }.joined()
    }
}
