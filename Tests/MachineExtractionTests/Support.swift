import Foundation
import MachineAnalysis
import MachineExtraction
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
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("\(name).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return analyze([file.path])
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
