import MachineModel

/// A JSON array with one object per finding (sorted keys, stable order).
public enum JSONReporter {
    struct Entry: Encodable {
        var check: String
        var severity: String
        var message: String
        var file: String
        var line: Int
        var column: Int
        var machine: String?
        var subject: String
        var witness: [String]?
        var fingerprint: String

        func encode(to encoder: Encoder) throws {
            enum K: String, CodingKey { case check, severity, message, file, line, column, machine, subject, witness, fingerprint }
            var c = encoder.container(keyedBy: K.self)
            try c.encode(check, forKey: .check)
            try c.encode(severity, forKey: .severity)
            try c.encode(message, forKey: .message)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(column, forKey: .column)
            try c.encode(machine, forKey: .machine)   // null for findings about comments
            try c.encode(subject, forKey: .subject)
            try c.encodeIfPresent(witness, forKey: .witness)
            try c.encode(fingerprint, forKey: .fingerprint)
        }
    }

    public static func generate(_ report: LintReport) -> String {
        let entries = report.violations.map { v in
            Entry(check: v.finding.check, severity: v.finding.severity.rawValue, message: v.finding.message,
                  file: v.finding.location.file, line: v.finding.location.line, column: v.finding.location.column,
                  machine: v.machine, subject: v.finding.subject, witness: v.finding.witness, fingerprint: v.fingerprint)
        }
        return ReporterJSON.encode(entries)
    }
}
