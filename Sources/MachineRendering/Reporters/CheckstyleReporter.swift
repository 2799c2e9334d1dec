import MachineModel

/// Checkstyle XML (read by Jenkins, GitLab, Danger…): one `<file>` per source file, sorted by path.
public enum CheckstyleReporter {
    public static func generate(_ report: LintReport) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        var files: [String: [Violation]] = [:]
        for v in report.violations { files[v.finding.location.file, default: []].append(v) }
        for file in files.keys.sorted() {
            out += "\t<file name=\"\(escape(file))\">\n"
            for v in files[file]! {
                let f = v.finding
                let severity = f.severity == .note ? "info" : f.severity.rawValue
                out += "\t\t<error line=\"\(f.location.line)\" column=\"\(f.location.column)\" severity=\"\(severity)\" "
                    + "message=\"\(escape(LintReport.text(v)))\" source=\"machine-viz.\(escape(f.check))\"/>\n"
            }
            out += "\t</file>\n"
        }
        return out + "</checkstyle>\n"
    }

    /// Escapes for an XML 1.0 attribute value. Characters XML 1.0 cannot hold at all (most C0 controls)
    /// become U+FFFD; tab, line feed and carriage return become character references so they survive
    /// attribute-value normalisation.
    public static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
