import Foundation
import MachineAnalysis
@testable import MachineExtraction
import MachineModel
import XCTest

/// Fixtures are `.swift` files beside the tests (found from this file's path), and the examples/ folder.
enum Fixture {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { testsFolder.appendingPathComponent("Fixtures/\(name).swift").path }
    static func example(_ relative: String) -> String { packageRoot.appendingPathComponent("examples/\(relative)").path }

    /// Extracts and analyses the given paths.
    static func analyze(_ paths: [String]) -> (machines: [Machine], diagnostics: [Diagnostic]) {
        let result = Extractor.extract(paths: paths)
        return (result.machines.map(Analyzer().analyze), result.diagnostics)
    }

    static func analyze(source: String, name: String = "inline") throws -> (machines: [Machine], diagnostics: [Diagnostic]) {
        try withFolder(["\(name).swift": source]) { analyze($0) }
    }

    /// Writes the sources (file name → text) to a fresh folder, gives `body` their paths in name order,
    /// and removes the folder.
    static func withFolder<T>(_ files: [String: String], _ body: ([String]) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        return try body(paths)
    }
}

extension Machine {
    /// State-changing edges as `from -input-> to`.
    var transitions: Set<String> {
        Set(edges.filter { $0.from != $0.to }.map { "\($0.from) -\($0.input)-> \($0.to)" })
    }

    var selfLoops: Set<String> {
        Set(edges.filter { $0.from == $0.to }.map { "\($0.from) -\($0.input)-> \($0.to)" })
    }

    var findingKeys: Set<String> { Set(findings.map { "\($0.check) \($0.subject)" }) }

    /// (input, emitted input) pairs over all rules.
    var emits: Set<String> {
        Set(rules.flatMap { r in r.inputs.flatMap { i in (r.effect?.emits ?? []).map { "\(i)>\($0)" } } })
    }

    var cancels: Set<String> {
        Set(rules.flatMap { r in r.inputs.flatMap { i in r.cancels.map { "\(i)>\($0)" } } })
    }
}

extension Array where Element == Machine {
    func named(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Machine? {
        let m = first { $0.name == name }
        if m == nil { XCTFail("no machine \(name); found \(map(\.name))", file: file, line: line) }
        return m
    }
}

@testable import MachineExtraction

/// Extraction + analysis of fixture files (Fixtures/ beside this file) or of inline sources.
struct Analysed {
    var machines: [Machine]
    var diagnostics: [Diagnostic]

    init(paths: [String]) {
        let result = Extractor.extract(paths: paths)
        machines = result.machines.map { Analyzer().analyze($0) }
        diagnostics = result.diagnostics
    }

    static func fixture(_ names: String...) -> Analysed {
        let base = Fixture.testsFolder.appendingPathComponent("Fixtures")
        return Analysed(paths: names.map { base.appendingPathComponent($0).path })
    }

    /// Writes the sources to a fresh folder (file name → text) and analyses them.
    static func source(_ files: [String: String]) -> Analysed {
        try! Fixture.withFolder(files) { Analysed(paths: $0) }
    }

    static func source(_ text: String) -> Analysed { source(["Main.swift": text]) }

    func machine(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Machine {
        try XCTUnwrap(machines.first { $0.name == name }, "no machine \(name); found \(machines.map(\.name))", file: file, line: line)
    }

    /// `severity line: message` for each diagnostic.
    var diagnosticLines: [String] { diagnostics.map { "\($0.severity.rawValue) \($0.location?.line ?? 0): \($0.message)" } }
}

extension Machine {
    /// Edges that change state, as `from -input-> to`.
    var moves: Set<String> { Set(edges.filter { $0.from != $0.to }.map { "\($0.from) -\($0.input)-> \($0.to)" }) }
    /// Every edge, self-loops included.
    var allEdges: Set<String> { Set(edges.map { "\($0.from) -\($0.input)-> \($0.to)" }) }
    /// Findings as `check subject`.
    var findingSet: Set<String> { Set(findings.map { "\($0.check) \($0.subject)" }) }

    func rule(at line: Int, file: StaticString = #filePath, sourceLine: UInt = #line) throws -> Rule {
        try XCTUnwrap(rules.first { $0.location.line == line }, "no rule at line \(line)", file: file, line: sourceLine)
    }

    func rules(from: String, input: String) -> [Rule] {
        rules.filter { $0.pairs.contains(Pair(from: from, input: input)) }
    }

    func edge(_ from: String, _ input: String, _ to: String) -> Edge? {
        edges.first { $0.from == from && $0.input == input && $0.to == to }
    }

    /// The effect label of the rule that made an edge.
    func effectLabel(_ from: String, _ input: String, _ to: String) -> String? {
        guard let e = edge(from, input, to) else { return "(no edge)" }
        let rule = rules.first { $0.id == e.rule }
        return rule?.outcomes.first { o in
            o.pairs.contains(Pair(from: from, input: input)) && (o.target == .state(to) || (o.target == .stay && from == to))
        }?.effect?.label
    }
}
