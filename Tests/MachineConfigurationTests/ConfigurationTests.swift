import Foundation
import MachineConfiguration
import MachineModel
import XCTest

final class ConfigurationTests: XCTestCase {
    let checks = ConfigurationTests.knownChecks
    let reporters = ConfigurationTests.knownReporters
    static let knownChecks = ["unreachable_state", "dead_end_state", "overlapping_rules", "shadowed_rule",
                  "data_dependent_target", "unused_input", "duplicate_key", "unused_suppression"]
    static let knownReporters = ["xcode", "json", "sarif", "github-actions", "checkstyle", "markdown"]

    func parse(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: "cfg/.machine-viz.yml", knownChecks: checks, knownReporters: reporters)
    }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigurationError? {
        do {
            _ = try parse(text)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch let e as ConfigurationError {
            return e
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    static let full = """
        # every key
        included:
          - Sources
        excluded: [Sources/Generated, Tests]
        disabled_checks: [unused_input]
        severity:
          dead_end_state: error
          data_dependent_target: warning
        strict: true
        reporter: github-actions
        machines:
          lockMappings:
            initial: locked
            terminal: [servicing]
            ignored: jammed
        """

    func testParsesEveryKey() throws {
        let c = try parse(Self.full)
        XCTAssertEqual(c.included, ["Sources"])
        XCTAssertEqual(c.excluded, ["Sources/Generated", "Tests"])
        XCTAssertEqual(c.disabledChecks, ["unused_input"])
        XCTAssertEqual(c.severities, ["dead_end_state": .error, "data_dependent_target": .warning])
        XCTAssertEqual(c.strict, true)
        XCTAssertEqual(c.reporter, "github-actions")
        XCTAssertEqual(c.machines["lockMappings"]?.initial, "locked")
        XCTAssertEqual(c.machines["lockMappings"]?.terminal, ["servicing"])
        XCTAssertEqual(c.machines["lockMappings"]?.ignored, ["jammed"], "a single name counts as a list")
    }

    func testEmptyFileIsTheDefaults() throws {
        let c = try parse("# nothing yet\n")
        XCTAssertEqual(c.included, [])
        XCTAssertNil(c.strict)
        XCTAssertTrue(c.machines.isEmpty)
    }

    func testUnknownTopLevelKeyNamesFileLineAndKey() {
        let e = error("included: [Sources]\nexclude: [Tests]\n")
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.key, "exclude")
        XCTAssertEqual(e?.description.hasPrefix("cfg/.machine-viz.yml:2:1: error: 'exclude': unknown key 'exclude' (did you mean 'excluded'?)"), true, e?.description ?? "")
    }

    func testUnknownMachineSetting() {
        let e = error("machines:\n  door:\n    initial: closed\n    terminals: [open]\n")
        XCTAssertEqual(e?.line, 4)
        XCTAssertEqual(e?.key, "machines.door.terminals")
        XCTAssertTrue(e?.message.contains("did you mean 'terminal'") ?? false, e?.message ?? "")
    }

    func testBadValues() {
        XCTAssertEqual(error("severity:\n  dead_end_state: fatal\n")?.line, 2)
        XCTAssertEqual(error("severity:\n  dead_end_state: fatal\n")?.key, "severity.dead_end_state")
        XCTAssertEqual(error("severity:\n  dead_end: error\n")?.message.contains("did you mean 'dead_end_state'"), true)
        let disabled = error("disabled_checks:\n  - unused_input\n  - unreachable\n")
        XCTAssertEqual(disabled?.line, 3, "points at the bad list element")
        XCTAssertEqual(disabled?.key, "disabled_checks")
        XCTAssertEqual(error("strict: maybe\n")?.key, "strict")
        XCTAssertEqual(error("reporter: html\n")?.key, "reporter")
        XCTAssertEqual(error("included:\n  a: b\n")?.key, "included")
        XCTAssertEqual(error("machines: [door]\n")?.key, "machines")
        XCTAssertEqual(error("- just\n- a list\n")?.line, 1)
    }

    func testDuplicateKeyIsAnError() {
        let e = error("strict: true\nstrict: false\n")
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.message, "key appears twice")
    }

    func testInvalidYAMLNamesTheLine() {
        let e = error("included: [Sources\nexcluded: x\n")
        XCTAssertNotNil(e?.line)
        XCTAssertTrue(e?.message.hasPrefix("not valid YAML") ?? false)
    }

    func machine() -> Machine {
        Machine(name: "lockMappings", dialect: .operatorTable, location: SourceLocation(file: "a.swift", line: 1, column: 1),
                states: ["locked", "unlocked", "servicing", "jammed"], inputs: ["unlock"], initial: nil, rules: [], order: .firstMatch,
                terminal: ["unlocked"])
    }

    func testApplySetsInitialAndTerminal() throws {
        let m = try parse(Self.full).apply(to: machine())
        XCTAssertEqual(m.initial, "locked")
        XCTAssertEqual(m.terminal, ["unlocked", "servicing"], "configuration adds to the terminal states the code marks")
        let other = try parse(Self.full).apply(to: Machine(name: "other", dialect: .switchMethod, location: machine().location, states: ["a"],
                                                           inputs: [], initial: nil, rules: [], order: .resolved))
        XCTAssertNil(other.initial)
    }

    func testEffectBoundsAndInternalInputs() throws {
        let c = try parse("effects:\n  max_instances: 3\n  budget: 5000\nmachines:\n  lockMappings:\n    internal: [unlock]\n    external: unlock\n")
        XCTAssertEqual(c.maxEffectInstances, 3)
        XCTAssertEqual(c.effectBudget, 5000)
        XCTAssertEqual(c.machines["lockMappings"]?.internal, ["unlock"])
        XCTAssertEqual(c.machines["lockMappings"]?.external, ["unlock"])
        XCTAssertNoThrow(try c.apply(to: machine()))
        XCTAssertEqual(error("effects:\n  max_instances: 0\n")?.key, "effects.max_instances")
        XCTAssertEqual(error("effects:\n  max_instances: 101\n")?.line, 2)
        XCTAssertTrue(error("effects:\n  budgets: 10\n")?.message.contains("did you mean 'budget'") ?? false)
        let bad = try parse("machines:\n  lockMappings:\n    external: [kick]\n")
        XCTAssertThrowsError(try bad.apply(to: machine())) { error in
            let e = error as? ConfigurationError
            XCTAssertEqual(e?.line, 3)
            XCTAssertEqual(e?.key, "machines.lockMappings.external")
            XCTAssertTrue(e?.message.contains("'kick' is not an input of machine 'lockMappings'") ?? false, e?.message ?? "")
        }
    }

    func testApplyRejectsUnknownStateWithItsLine() throws {
        let c = try parse("machines:\n  lockMappings:\n    initial: locked\n    terminal: [servicing, broken]\n")
        XCTAssertThrowsError(try c.apply(to: machine())) { error in
            let e = error as? ConfigurationError
            XCTAssertEqual(e?.line, 4)
            XCTAssertEqual(e?.key, "machines.lockMappings.terminal")
            XCTAssertTrue(e?.message.contains("'broken' is not a state of machine 'lockMappings'") ?? false)
        }
        XCTAssertEqual(c.unknownMachines(["lockMappings"]), [])
        XCTAssertEqual(c.unknownMachines(["door"]), ["lockMappings"])
    }

    func testFilterDisablesIgnoresAndOverridesSeverity() throws {
        let c = try parse(Self.full)
        let at = SourceLocation(file: "a.swift", line: 3, column: 5)
        let findings = [
            Finding(check: "unused_input", severity: .note, message: "", location: at, subject: "jammed"),
            Finding(check: "unreachable_state", severity: .warning, message: "", location: at, subject: "jammed"),
            Finding(check: "overlapping_rules", severity: .warning, message: "", location: at, subject: "jammed/unlock"),
            Finding(check: "dead_end_state", severity: .warning, message: "", location: at, subject: "servicing"),
            Finding(check: "overlapping_rules", severity: .warning, message: "", location: at, subject: "locked/unlock"),
        ]
        let kept = c.filter(findings, machine: "lockMappings")
        XCTAssertEqual(kept.map(\.check), ["dead_end_state", "overlapping_rules"])
        XCTAssertEqual(kept.map(\.severity), [.error, .warning])
        XCTAssertEqual(kept.last?.subject, "locked/unlock")
        XCTAssertEqual(c.filter(findings, machine: "other").count, 4, "ignored states are per machine")
    }

    func testFindLooksInParentFoldersAndResolvesPathsFromTheFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mv-config-\(UUID().uuidString)")
        let nested = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        XCTAssertNil(Configuration.find(from: nested.path).flatMap { $0.hasPrefix(root.path) ? $0 : nil })
        try "included: [Sources]\n".write(to: root.appendingPathComponent(".machine-viz.yml"), atomically: true, encoding: .utf8)
        let found = try XCTUnwrap(Configuration.find(from: nested.path))
        XCTAssertEqual(URL(fileURLWithPath: found).standardizedFileURL.path,
                       root.appendingPathComponent(".machine-viz.yml").standardizedFileURL.path)
        let c = try Configuration.load(found, knownChecks: checks, knownReporters: reporters)
        let rootPath = root.standardizedFileURL.path
        XCTAssertEqual(c.resolve("Sources", currentDirectory: rootPath), "Sources")
        XCTAssertEqual(c.resolve("Sources", currentDirectory: nested.path), rootPath + "/Sources")
        XCTAssertEqual(c.resolve("/abs", currentDirectory: nested.path), "/abs")
        XCTAssertEqual(c.resolve("Sources", currentDirectory: URL(fileURLWithPath: rootPath).deletingLastPathComponent().path),
                       root.lastPathComponent + "/Sources")
    }
}

final class ConfigurationDocumentationTests: XCTestCase {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    func text(_ name: String) -> String {
        String(decoding: FileManager.default.contents(atPath: Self.docs.appendingPathComponent(name).path) ?? Data(), as: UTF8.self)
    }

    /// The complete example in docs/configuration.md parses, and every key is documented.
    func testDocumentedExampleParsesAndEveryKeyIsDescribed() throws {
        let doc = text("configuration.md")
        let start = try XCTUnwrap(doc.range(of: "```yaml\n"))
        let end = try XCTUnwrap(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let example = String(doc[start.upperBound..<end.lowerBound])
        let c = try Configuration.parse(example, file: "docs/configuration.md", knownChecks: ConfigurationTests.knownChecks,
                                        knownReporters: ConfigurationTests.knownReporters)
        XCTAssertEqual(c.machines["lockMappings"]?.terminal, ["servicing"])
        for key in Configuration.keys {
            XCTAssertTrue(doc.contains("| `\(key)` |"), "docs/configuration.md does not describe \(key)")
            XCTAssertTrue(example.contains("\(key):"), "the example does not show \(key)")
        }
        for key in Configuration.machineKeys {
            XCTAssertTrue(doc.contains("| `machines.NAME.\(key)` |"), key)
            XCTAssertTrue(example.contains("\(key):"), key)
        }
    }

    func testCIDocumentDescribesEveryLintOption() {
        let doc = text("ci.md")
        for option in ["--exclude", "--reporter", "--output", "--config", "--strict", "--write-baseline", "--baseline"] {
            XCTAssertTrue(doc.contains("| `\(option)"), "docs/ci.md has no row for \(option)")
            XCTAssertTrue(doc.contains("machine-viz lint \(option)") || doc.contains("\(option) "), "no example for \(option)")
        }
        for reporter in ConfigurationTests.knownReporters { XCTAssertTrue(doc.contains("**`\(reporter)`**"), reporter) }
    }
}

final class InvariantConfigurationTests: XCTestCase {
    func parse(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: "cfg/.machine-viz.yml", knownChecks: ConfigurationTests.knownChecks,
                                knownReporters: ConfigurationTests.knownReporters)
    }

    func product(_ name: String, _ fields: [String]) -> ProductMachine {
        ProductMachine(name: name, dialect: .tca, location: SourceLocation(file: "F.swift", line: 1, column: 1),
                       fields: fields.map { .init(name: $0, states: ["false", "true"], initial: "false") }, inputs: [], rules: [])
    }

    func testInvariantsApplyToFeaturesThatHaveTheirFields() throws {
        let c = try parse("""
            invariants: ["isLoading implies !isEditing", "isSaving => isLoading"]
            product_budget: 500
            machines:
              Editor:
                invariants: "isDirty || !isSaving"
            """)
        XCTAssertEqual(c.productBudget, 500)
        XCTAssertEqual(c.invariants(for: product("Editor", ["isLoading", "isEditing", "isDirty", "isSaving"])).map(\.text),
                       ["isDirty || !isSaving", "isLoading implies !isEditing", "isSaving => isLoading"])
        XCTAssertEqual(c.invariants(for: product("Viewer", ["isLoading", "isEditing"])).map(\.text), ["isLoading implies !isEditing"])
        XCTAssertEqual(c.invariants(for: product("Other", ["phase"])).map(\.text), [])
    }

    func testBadInvariantsAndBudgetsNameTheLine() throws {
        for (text, line, what) in [("invariants: [\"a implies\"]\n", 1, "missing a condition"),
                                   ("strict: true\nproduct_budget: 0\n", 2, "not a positive whole number"),
                                   ("machines:\n  F:\n    invariants:\n      - ok\n      - \"a ==\"\n", 5, "expected a value")] {
            XCTAssertThrowsError(try parse(text), text) { error in
                let e = error as? ConfigurationError
                XCTAssertEqual(e?.line, line, "\(text): \(error)")
                XCTAssertTrue(e?.message.contains(what) == true, "\(text): \(error)")
            }
        }
    }
}
