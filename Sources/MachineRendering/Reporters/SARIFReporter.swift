import Foundation
import MachineAnalysis
import MachineModel

/// SARIF 2.1.0, as GitHub code scanning accepts it: one run, one rule per check id (with its
/// rationale as help text and its default severity), one result per finding with a physical
/// location and a partial fingerprint that survives line moves.
public enum SARIFReporter {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let informationURI = "https://github.com/machine-viz/machine-viz"

    struct Log: Encodable {
        var schema = SARIFReporter.schema
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }
    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var columnKind = "unicodeCodePoints"
    }
    struct Tool: Encodable { var driver: Driver }
    struct Driver: Encodable {
        var name = "machine-viz"
        var informationUri = SARIFReporter.informationURI
        var semanticVersion: String
        var version: String
        var rules: [Rule]
    }
    struct Text: Encodable {
        var text: String
        var markdown: String?
    }
    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var helpUri: String
        var defaultConfiguration: Configuration
        var properties: Properties
    }
    struct Configuration: Encodable { var level: String }
    struct Properties: Encodable { var tags: [String] }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Text
        var locations: [Location]
        var partialFingerprints: [String: String]
    }
    struct Location: Encodable { var physicalLocation: PhysicalLocation }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    static func level(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// Rule help: the summary, the rationale and one triggering example, as text and Markdown.
    static func help(_ d: CheckDescription) -> Text {
        let example = d.triggeringExamples.first.map { $0.replacingOccurrences(of: String(CheckDescription.marker), with: "") }
        var text = "\(d.summary)\n\n\(d.rationale)"
        var markdown = "**\(d.name)** (`\(d.identifier)`): \(d.summary)\n\n\(d.rationale)"
        if let example {
            text += "\n\nExample that triggers it:\n\n\(example)"
            markdown += "\n\nExample that triggers it:\n\n```swift\n\(example)\n```"
        }
        markdown += "\n\nSuppress one finding with `// machine-viz:disable:next \(d.identifier) - reason`."
        return Text(text: text, markdown: markdown)
    }

    /// A relative path becomes a URI relative to `%SRCROOT%` (the repository root in code scanning);
    /// an absolute one a `file://` URI.
    static func artifact(_ path: String) -> ArtifactLocation {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#[]@!$&'()*+,=")
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        let encoded = p.addingPercentEncoding(withAllowedCharacters: allowed) ?? p
        return p.hasPrefix("/") ? ArtifactLocation(uri: "file://" + encoded, uriBaseId: nil)
                                : ArtifactLocation(uri: encoded, uriBaseId: "%SRCROOT%")
    }

    public static func generate(_ report: LintReport) -> String {
        let rules = report.checks.map { d in
            Rule(id: d.identifier, name: d.name.capitalized.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: ""),
                 shortDescription: Text(text: d.summary), fullDescription: Text(text: d.rationale),
                 help: help(d), helpUri: "\(informationURI)/blob/main/docs/checks.md#\(d.identifier)",
                 defaultConfiguration: Configuration(level: level(d.defaultSeverity)),
                 properties: Properties(tags: ["state-machine"]))
        }
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let results = report.violations.map { v in
            let f = v.finding
            return Result(ruleId: f.check, ruleIndex: index[f.check], level: level(f.severity),
                          message: Text(text: LintReport.text(v)),
                          locations: [Location(physicalLocation: PhysicalLocation(
                              artifactLocation: artifact(f.location.file),
                              region: Region(startLine: max(1, f.location.line), startColumn: max(1, f.location.column))))],
                          partialFingerprints: ["machineVizFingerprint/v1": v.fingerprint])
        }
        let log = Log(runs: [Run(tool: Tool(driver: Driver(semanticVersion: report.toolVersion, version: report.toolVersion, rules: rules)),
                                 results: results)])
        return ReporterJSON.encode(log)
    }
}
