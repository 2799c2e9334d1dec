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
