import Foundation
import MachineAnalysis
@testable import MachineExtraction
import MachineModel
import XCTest

/// Every JSON the tool writes reads back to the same bytes: encode → decode → encode is a fixed point,
/// for the `analyze` document (machines, rules, edges, findings, candidates), product machines,
/// suppressions and baselines, on every example, fixture, fuzz regression and conformance case.
final class JSONRoundTripTests: XCTestCase {
    /// The `.swift` inputs: examples/, the extraction fixtures, Fuzz/Regressions/ and, when present,
    /// ../shared/conformance/cases.
    static var inputs: [String] {
        let root = Fixture.packageRoot
        let folders = [root.appendingPathComponent("examples"), Fixture.testsFolder.appendingPathComponent("Fixtures"),
                       root.appendingPathComponent("Fuzz/Regressions"),
                       root.deletingLastPathComponent().appendingPathComponent("shared/conformance/cases")]
        var files: [String] = []
        for folder in folders {
            guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where url.pathExtension == "swift" && !url.path.contains("/.build") {
                files.append(url.path)
            }
        }
        return files.sorted()
    }

    func assertFixedPoint<T: Codable>(_ value: T, _ type: T.Type, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try StableJSON.data(value)
        let again = try StableJSON.data(JSONDecoder().decode(type, from: json))
        if again != json {
            let a = String(decoding: json, as: UTF8.self).split(separator: "\n"), b = String(decoding: again, as: UTF8.self).split(separator: "\n")
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
            XCTFail("\(what): the JSON does not read back to the same bytes; first difference at line \((first?.offset ?? min(a.count, b.count)) + 1): " +
                    "\(first.map { "\($0.element.0) ≠ \($0.element.1)" } ?? "lengths \(a.count) ≠ \(b.count)")", file: file, line: line)
        }
    }

    func testEveryDocumentReadsBackToTheSameBytes() throws {
        let files = Self.inputs
        XCTAssertGreaterThan(files.count, 30, "examples, fixtures and regressions are found")
        var rules = 0, patterns = 0, dataDependent = 0, products = 0
        for path in files {
            let result = Extractor.extract(paths: [path])
            let machines = result.machines.map(Analyzer().analyze)
            var document = AnalysisDocument(machines: machines, diagnostics: result.diagnostics)
            document.candidates = result.candidates
            try assertFixedPoint(document, AnalysisDocument.self, path)
            try assertFixedPoint(result.products, [ProductMachine].self, "\(path) (product machines)")
            try assertFixedPoint(result.suppressions, [Suppression].self, "\(path) (suppressions)")
            let violations = machines.flatMap { m in
                m.findings.map { Violation(machine: m.id, finding: $0, fingerprint: Baseline.fingerprint($0, machine: m)) }
            }
            try assertFixedPoint(violations, [Violation].self, "\(path) (violations)")
            try assertFixedPoint(Baseline(violations: violations), Baseline.self, "\(path) (baseline)")
            for rule in machines.flatMap(\.rules) {
                rules += 1
                if rule.outcomes.contains(where: { $0.pattern?.narrows == true }) { patterns += 1 }
                if rule.outcomes.contains(where: { if case .unknown = $0.target { true } else { false } }) { dataDependent += 1 }
            }
            products += result.products.count
        }
        // the inputs exercise what the decoder once lost
        XCTAssertGreaterThan(rules, 100)
        XCTAssertGreaterThan(patterns, 5, "rules with narrowing patterns")
        XCTAssertGreaterThan(dataDependent, 0, "rules with data-dependent targets")
        XCTAssertGreaterThan(products, 0, "product machines")
    }

    /// The two fuzz findings, on their minimised inputs: the keys are written, and read back.
    func testTheFuzzRegressionsKeepPatternsAndDataDependentTargets() throws {
        let root = Fixture.packageRoot.appendingPathComponent("Fuzz/Regressions")
        for (file, key) in [("json-rule-patterns.swift", "patterns"), ("json-rule-data-dependent.swift", "dataDependent")] {
            let (machines, _) = Fixture.analyze([root.appendingPathComponent(file).path])
            XCTAssertFalse(machines.isEmpty, file)
            let json = try AnalysisDocument(machines: machines, diagnostics: []).jsonData()
            XCTAssertTrue(String(decoding: json, as: UTF8.self).contains("\"\(key)\""), "\(file) writes \(key)")
            let back = try JSONDecoder().decode(AnalysisDocument.self, from: json)
            XCTAssertEqual(try back.jsonData(), json, file)
        }
    }
}
