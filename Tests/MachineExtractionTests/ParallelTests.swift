import Foundation
import MachineAnalysis
@testable import MachineExtraction
import MachineModel
import XCTest

final class ParallelTests: XCTestCase {
    func testMapKeepsInputOrderForAnyJobCount() {
        let items = Array(0..<257)
        for jobs in [1, 2, 3, 8, 1000] {
            XCTAssertEqual(Parallel.map(items, jobs: jobs) { $0 * $0 }, items.map { $0 * $0 }, "jobs \(jobs)")
        }
        XCTAssertEqual(Parallel.map([Int](), jobs: 4) { $0 }, [])
    }

    /// Extraction with several jobs gives the same machines, diagnostics and suppressions as with one,
    /// on a folder with every dialect (the examples).
    func testExtractionIsTheSameWhateverTheJobCount() {
        let examples = Fixture.packageRoot.appendingPathComponent("examples").path
        let one = Extractor.extract(paths: [examples], jobs: 1)
        let three = Extractor.extract(paths: [examples], jobs: 3)
        XCTAssertGreaterThan(one.machines.count, 10)
        XCTAssertEqual(one.machines, three.machines)
        XCTAssertEqual(one.diagnostics, three.diagnostics)
        XCTAssertEqual(one.suppressions, three.suppressions)
        XCTAssertEqual(one.candidates, three.candidates)
    }

    /// Switch methods are built per type on several threads: machines, notes and candidates come out in
    /// the order of one job. Each type's event method calls helpers from many cases (each path walks
    /// them again; what a node means is read once), and a write inside a closure makes it partial.
    func testSwitchMethodsOfManyTypesAreTheSameWhateverTheJobCount() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["Pump", "Valve", "Sluice", "Kiln", "Loom", "Winch"]
        for name in names {
            try """
                import Dispatch

                enum \(name)Mode { case idle, priming, running, draining }
                enum \(name)Event { case start, prime, stop, drain, tick }

                final class \(name) {
                    var mode: \(name)Mode = .idle
                    var primed = false

                    func handle(_ event: \(name)Event) {
                        switch (mode, event) {
                        case (.idle, .prime): mode = .priming; settle()
                        case (.priming, .start): mode = .running; settle()
                        case (.running, .stop): mode = .idle; settle()
                        case (.running, .drain), (.idle, .drain): mode = .draining; settle()
                        case (.draining, .tick): finish()
                        default: settle()
                        }
                    }

                    private func settle() {
                        if primed && mode != .draining { log() }
                    }

                    private func log() {}

                    private func finish() {
                        if mode == .draining { mode = .idle }
                    }

                    var pending: (() -> Void)?
                    func reset() {
                        pending = { self.mode = .idle }
                    }
                }
                """.write(to: dir.appendingPathComponent("\(name).swift"), atomically: true, encoding: .utf8)
        }
        let one = Extractor.extract(paths: [dir.path], jobs: 1)
        XCTAssertEqual(one.machines.map(\.name), names.sorted().map { "\($0).mode" })
        for m in one.machines.map(Analyzer().analyze) {
            XCTAssertTrue(m.partial, m.name)
            XCTAssertTrue(m.transitions.isSuperset(of: ["idle -prime-> priming", "priming -start-> running", "running -stop-> idle",
                                                        "running -drain-> draining", "idle -drain-> draining", "draining -tick-> idle"]),
                          "\(m.name): \(m.transitions.sorted())")
        }
        XCTAssertEqual(one.diagnostics.filter { $0.message.contains("is also written here") }.count, names.count)
        for jobs in [2, 3] {
            let many = Extractor.extract(paths: [dir.path], jobs: jobs)
            XCTAssertEqual(one.machines, many.machines, "jobs \(jobs)")
            XCTAssertEqual(one.diagnostics, many.diagnostics, "jobs \(jobs)")
            XCTAssertEqual(one.candidates, many.candidates, "jobs \(jobs)")
        }
    }

    /// Files are taken in path order, whatever order the paths are given in.
    func testFilesAreListedInPathOrder() {
        let a = Fixture.example("harvest"), b = Fixture.example("switch")
        var ignored: [Diagnostic] = []
        let forward = SourceSet.list(paths: [a, b], diagnostics: &ignored)
        XCTAssertEqual(forward, SourceSet.list(paths: [b, a], diagnostics: &ignored))
        XCTAssertEqual(forward, forward.sorted())
        XCTAssertEqual(SourceSet.load(paths: [b, a], jobs: 2).files.map(\.path), forward)
    }
}
