import MachineModel

/// `file:line:column: warning: machine: message [check_id]`, the format Xcode and most editors and CI
/// log parsers turn into annotations.
public enum XcodeReporter {
    public static func generate(_ report: LintReport) -> String {
        report.violations.map { v in
            let f = v.finding
            var text = LintReport.text(v)
            // one line per finding (most texts have no line break: no Foundation replace for them)
            if text.utf8.contains(UInt8(ascii: "\n")) {
                text = text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            }
            return "\(f.location.file):\(f.location.line):\(f.location.column): \(f.severity.rawValue): \(text) [\(f.check)]\n"
        }.joined()
    }
}
