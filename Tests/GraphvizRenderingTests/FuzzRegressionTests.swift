import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GraphvizRendering
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import XCTest

/// Every input in Fuzz/Regressions/ (each once made the fuzz target fail) passes the fuzz target's
/// checks in the normal test suite: the DOT text lays out, the SVG is well-formed XML, the JSON
/// document reads back to the same bytes.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    func testEveryRegressionInputPassesTheFuzzChecks() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 3)
        for file in files {
            let result = Extractor.extract(paths: [Self.regressions.appendingPathComponent(file).path])
            let machines = result.machines.map(Analyzer().analyze)
            XCTAssertFalse(machines.isEmpty, "\(file) has a machine")
            for m in machines {
                let svg = try Graphviz.render(dot: DOTRenderer().render(m), format: .svg)
                let parser = XMLParser(data: svg)
                XCTAssertTrue(parser.parse(), "\(file): the SVG of \(m.name) is not well-formed: \(String(describing: parser.parserError))")
            }
            let json = try AnalysisDocument(machines: machines, diagnostics: result.diagnostics).jsonData()
            XCTAssertEqual(try JSONDecoder().decode(AnalysisDocument.self, from: json).jsonData(), json, file)
        }
    }

    /// Characters XML 1.0 forbids (C0 controls, DEL, U+FFFF) reach DOT only from broken source; they are
    /// drawn as control pictures (or U+FFFD), never copied into the SVG.
    func testCharactersXMLForbidsAreShownNotCopied() throws {
        let rule = Rule(id: 1, location: SourceLocation(file: "K.swift", line: 2, column: 1),
                        outcomes: [Outcome(pairs: [Pair(from: "cold", input: "light")], target: .state("hot"),
                                           guardText: "fir\u{4}ing \u{7F} \u{FFFF}\ttab")])
        let m = Analyzer().analyze(Machine(name: "kiln\u{1}", dialect: .switchMethod, location: SourceLocation(file: "K.swift", line: 1, column: 1),
                                           states: ["cold", "hot"], inputs: ["light"], initial: "cold", rules: [rule], order: .resolved))
        let dot = DOTRenderer().render(m)
        XCTAssertTrue(dot.contains("fir\u{2404}ing \u{2421} \u{FFFD}\ttab"), dot)
        XCTAssertTrue(dot.contains("kiln\u{2401}"), dot)
        let svg = try Graphviz.render(dot: dot, format: .svg)
        XCTAssertTrue(XMLParser(data: svg).parse())
        XCTAssertFalse(svg.contains(0x04) || svg.contains(0x7F) || svg.contains(0x01))
    }
}
