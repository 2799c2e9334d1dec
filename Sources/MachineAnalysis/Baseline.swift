import Foundation
import MachineModel

/// The findings a team accepted when it adopted the lint (`--write-baseline`), so that later runs
/// (`--baseline`) fail only on new ones. Entries are keyed by machine id, check and subject, never by
/// line, so moving code does not turn old findings into new ones (entries keyed by a machine's display
/// name, as written by earlier versions, are still honoured).
public struct Baseline: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable, Comparable {
        public var machine: String
        public var check: String
        public var subject: String
        /// For people reading the file; not compared.
        public var message: String

        public init(machine: String, check: String, subject: String, message: String) {
            self.machine = machine
            self.check = check
            self.subject = subject
            self.message = message
        }

        public var key: String { "\(machine)|\(check)|\(subject)" }

        public static func < (a: Entry, b: Entry) -> Bool { (a.key, a.message) < (b.key, b.message) }
    }

    public var version: Int
    public var findings: [Entry]

    public init(violations: [Violation]) {
        version = 1
        findings = violations.map(Self.entry).sorted()
    }

    /// A finding's key: machine id + check + subject. `shadowed_rule` subjects name a line
    /// (`line:12`), so for them the key describes the rule instead: its states, inputs and targets,
    /// or, when the extractor left it none (a `switch` case it resolved as dead), its position among
    /// the machine's shadowed rules.
    public static func fingerprint(_ finding: Finding, machine: Machine?) -> String {
        var subject = finding.subject
        if finding.check == Check.shadowedRule.rawValue, let machine,
           let rule = machine.rules.first(where: { $0.location == finding.location }) {
            if !rule.pairs.isEmpty {
                subject = "rule:\(rule.from.joined(separator: ","))/\(rule.inputs.joined(separator: ","))->\(rule.targets.joined(separator: ","))"
            } else {
                let shadowed = machine.findings.filter { $0.check == finding.check }.map(\.location).sorted()
                subject = "shadowed-rule#\((shadowed.firstIndex(of: finding.location) ?? 0) + 1)"
            }
        }
        return "\(machine?.id ?? "")|\(finding.check)|\(subject)"
    }

    static func entry(_ v: Violation) -> Entry {
        let parts = v.fingerprint.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3 {
            return Entry(machine: parts[0], check: parts[1], subject: parts[2], message: v.finding.message)
        }
        return Entry(machine: v.machine ?? "", check: v.finding.check, subject: v.finding.subject, message: v.finding.message)
    }

    /// The violations the baseline does not account for. Each entry absorbs one violation with its key,
    /// so a second finding with the same key is new.
    public func newViolations(in violations: [Violation]) -> [Violation] {
        var budget: [String: Int] = [:]
        for e in findings { budget[e.key, default: 0] += 1 }
        return violations.filter { v in
            let entry = Self.entry(v)
            // baselines written before machine ids were keyed by the machine's display name
            let legacy = "\(v.machine ?? "")|\(entry.check)|\(entry.subject)"
            for key in [entry.key, legacy] {
                if let n = budget[key], n > 0 {
                    budget[key] = n - 1
                    return false
                }
            }
            return true
        }
    }

    /// The entries no violation matches any more: findings that were fixed, or whose machine, check
    /// or subject was renamed. Each violation accounts for one entry with its key.
    public func staleEntries(in violations: [Violation]) -> [Entry] {
        var present: [String: Int] = [:]
        for v in violations { present[Self.entry(v).key, default: 0] += 1 }
        return findings.filter { e in
            guard let n = present[e.key], n > 0 else { return true }
            present[e.key] = n - 1
            return false
        }
    }

    public func jsonData() throws -> Data { try StableJSON.data(self) }

    public static func decode(_ data: Data) throws -> Baseline {
        try JSONDecoder().decode(Baseline.self, from: data)
    }
}
