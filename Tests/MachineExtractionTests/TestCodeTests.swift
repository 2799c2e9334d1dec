import Foundation
import MachineModel
import XCTest

/// Test code read beside the program: a test arranging a state, a test target's helpers, a stub reducer
/// and rows of expected moves say nothing of how the program moves. Made-up identifiers.
final class TestCodeTests: XCTestCase {
    /// Writes a package (manifest, `Sources/Kettle`, `Tests/KettleTests`) and analyses its folder.
    func package(_ files: [String: String]) throws -> Analysed {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Kettle", targets: [.target(name: "Kettle"), .testTarget(name: "KettleTests", dependencies: ["Kettle"])])
        """
        for (name, text) in files.merging(["Package.swift": manifest]) { $1 } {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return Analysed(paths: [dir.path])
    }

    /// `sut.phase = .scorched` in a test, and an extension of the program's type in a test target (no test
    /// framework imported there), add no input: the true `unreachable_state` and `dead_end_state` stay.
    func testATestArrangingAStateIsNoInput() throws {
        let a = try package([
            "Sources/Kettle/Kettle.swift": """
            public enum Phase { case cold, heating, boiling, scorched }
            public final class Kettle {
                public var phase: Phase = .cold
                public func switchOn() { if phase == .cold { phase = .heating } }
                public func heatUp() { if phase == .heating { phase = .boiling } }
            }
            """,
            "Tests/KettleTests/KettleTests.swift": """
            import XCTest
            @testable import Kettle
            final class KettleTests: XCTestCase {
                func testScorchedStays() {
                    let sut = Kettle()
                    sut.phase = .scorched
                    sut.switchOn()
                    XCTAssertEqual(sut.phase, .scorched)
                }
            }
            """,
            "Tests/KettleTests/Kettle+Testing.swift": """
            @testable import Kettle
            extension Kettle {
                func forceCold() { phase = .cold }
            }
            """,
        ])
        let m = try a.machine("Kettle.phase")
        XCTAssertEqual(m.inputs, ["switchOn()", "heatUp()"])
        XCTAssertTrue(m.findingSet.isSuperset(of: ["unreachable_state scorched", "dead_end_state boiling"]), "\(m.findingSet)")
    }

    /// A stub reducer a test writes over the program's `State`, and rows of expected moves over the program's
    /// enum: no machine of their own and nothing merged into the program's, each said with a note.
    func testStubReducersAndExpectedRowsInTestsAreNoMachines() throws {
        let a = try package([
            "Sources/Kettle/Brew.swift": """
            import ComposableArchitecture
            public enum Speed { case off, low, high }
            public enum Knob { case up, down }
            @Reducer
            public struct Brew {
                @ObservableState
                public struct State: Equatable { var stage: Stage = .idle }
                public enum Stage: Equatable { case idle, steeping, done }
                public enum Action { case start, finish }
                public var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .start: if state.stage == .idle { state.stage = .steeping }
                        case .finish: if state.stage == .steeping { state.stage = .done }
                        }
                        return .none
                    }
                }
            }
            """,
            "Tests/KettleTests/BrewTests.swift": """
            import ComposableArchitecture
            import Testing
            @testable import Kettle
            struct BrewStub: Reducer {
                typealias State = Brew.State
                typealias Action = Brew.Action
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        state.stage = .done
                        return .none
                    }
                }
            }
            struct SpeedTests {
                static let rows: [(from: Speed, press: Knob, to: Speed)] = [(from: .off, press: .up, to: .low), (from: .low, press: .up, to: .high)]
            }
            """,
        ])
        XCTAssertEqual(a.machines.map(\.name), ["Brew.stage"])
        XCTAssertEqual(try a.machine("Brew.stage").moves, ["idle -start-> steeping", "steeping -finish-> done"])
        XCTAssertEqual(a.diagnostics.filter { $0.message.contains("test code") || $0.message.contains("in test code") }.count, 2, "\(a.diagnosticLines)")
    }
}
