import MachineModel

/// JUnit XML (GitLab and Jenkins test reports, most CI dashboards): one `<testsuite>` per source
/// file, sorted by path, one `<testcase>` per finding. Errors and warnings are `<failure>`s (their
/// `type` is the severity); notes are `<skipped>`, so they are listed without failing the report.
/// A clean run is one passing test case, so the report is never empty.
public enum JUnitReporter {
    public static func generate(_ report: LintReport) -> String {
        let x = CheckstyleReporter.escape
        var files: [String: [Violation]] = [:]
        for v in report.violations { files[v.finding.location.file, default: []].append(v) }
        let failures = report.violations.filter { $0.finding.severity != .note }.count
        let skipped = report.violations.count - failures
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"machine-viz\" tests=\"\(max(1, report.violations.count))\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        if files.isEmpty {
            out += "\t<testsuite name=\"machine-viz\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            out += "\t\t<testcase classname=\"machine-viz\" name=\"no findings\"/>\n"
            out += "\t</testsuite>\n"
        }
        for file in files.keys.sorted() {
            let violations = files[file]!
            let fileFailures = violations.filter { $0.finding.severity != .note }.count
            out += "\t<testsuite name=\"\(x(file))\" tests=\"\(violations.count)\" failures=\"\(fileFailures)\" errors=\"0\" skipped=\"\(violations.count - fileFailures)\">\n"
            for v in violations {
                let f = v.finding
                let place = "\(f.location.file):\(f.location.line):\(f.location.column)"
                out += "\t\t<testcase classname=\"machine-viz.\(x(f.check))\" name=\"\(x(place)) \(x(f.subject))\" file=\"\(x(f.location.file))\" line=\"\(f.location.line)\">\n"
                let text = LintReport.text(v)
                if f.severity == .note {
                    out += "\t\t\t<skipped message=\"note: \(x(text))\"/>\n"
                } else {
                    out += "\t\t\t<failure type=\"\(f.severity.rawValue)\" message=\"\(x(text))\">\(x("\(place): \(f.severity.rawValue): \(text) [\(f.check)]"))</failure>\n"
                }
                out += "\t\t</testcase>\n"
            }
            out += "\t</testsuite>\n"
        }
        return out + "</testsuites>\n"
    }
}
