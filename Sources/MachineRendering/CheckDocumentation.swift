import MachineAnalysis
import MachineModel

/// `docs/checks.md`, written from the check descriptions (a test keeps the file in step).
public enum CheckDocumentation {
    public static func markdown(_ checks: [CheckDescription] = CheckDescription.all) -> String {
        var out = """
            # Checks

            <!-- Generated from Sources/MachineAnalysis/CheckDescriptions.swift by the LintTests target: \
            edit the descriptions, then run `MACHINE_VIZ_RECORD=1 swift test --filter ChecksDocumentationTests`. -->

            Every finding names one of these checks. Its id is what `.machine-viz.yml` (`disabled_checks`,
            `severity`), inline comments (`// machine-viz:disable:next CHECK - reason`) and the reporters use.
            The examples below are tested: each one marked *triggers* produces the finding where `↓` points,
            each one marked *does not trigger* produces none.

            | id | name | default severity | subject |
            | --- | --- | --- | --- |

            """
        for d in checks {
            out += "| [`\(d.identifier)`](#\(d.identifier)) | \(d.name) | \(d.defaultSeverity.rawValue) | \(d.subject) |\n"
        }
        for d in checks {
            out += "\n<a id=\"\(d.identifier)\"></a>\n## `\(d.identifier)`: \(d.name)\n\n"
            out += "\(d.summary)\n\n\(d.rationale)\n\n"
            out += "Default severity: **\(d.defaultSeverity.rawValue)**. Subject: \(d.subject).\n"
            out += "Suppress one: `// machine-viz:disable:next \(d.identifier) - reason`. "
            out += "Turn it off: `disabled_checks: [\(d.identifier)]`. Change its severity: `severity: { \(d.identifier): error }`.\n"
            for example in d.triggeringExamples {
                out += "\nTriggers:\n\n```swift\n\(example)\n```\n"
            }
            if let trace = d.trace { out += "\nTrace of this example's finding: `\(trace)` (`(effect)`: sent by an effect in flight).\n" }
            for example in d.nonTriggeringExamples {
                out += "\nDoes not trigger:\n\n```swift\n\(example)\n```\n"
            }
            if let fix = d.fix { out += "\nFix: \(fix)\n" }
        }
        return out
    }
}
