import Foundation
import MachineExtraction
import MachineModel
import XCTest

final class CommentCommandsTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mv-comments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func extract(_ source: String, name: String = "Example.swift") throws -> ExtractionResult {
        let url = directory.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return Extractor.extract(paths: [url.path])
    }

    func testReadsEveryScopeWithTheLineItAppliesTo() throws {
        let result = try extract("""
            // machine-viz:disable unused_input
            enum Door {                                               // line 2
                case closed
                // machine-viz:disable:next dead_end_state, unreachable_state - welded shut

                /// The door is welded.
                case welded                                           // line 7
                case open // machine-viz:disable:this unreachable_state
                /* machine-viz:disable:previous dead_end_state */
            }
            """)
        let s = result.suppressions
        XCTAssertEqual(s.count, 4)
        XCTAssertEqual(s[0].scope, .file)
        XCTAssertNil(s[0].line)
        XCTAssertEqual(s[0].checks, ["unused_input"])
        XCTAssertEqual(s[1].scope, .next)
        XCTAssertEqual(s[1].line, 7, "skips blank lines and doc comments to the next line of code")
        XCTAssertEqual(s[1].checks, ["dead_end_state", "unreachable_state"])
        XCTAssertEqual(s[1].reason, "welded shut")
        XCTAssertEqual(s[1].location.line, 4)
        XCTAssertEqual(s[1].location.column, 5)
        XCTAssertEqual(s[2].scope, .this)
        XCTAssertEqual(s[2].line, 8)
        XCTAssertEqual(s[3].scope, .previous)
        XCTAssertEqual(s[3].line, 8)
        XCTAssertTrue(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    func testCoversMatchesFileLineAndCheck() {
        let here = SourceLocation(file: "a.swift", line: 4, column: 5)
        let s = Suppression(scope: .next, checks: ["dead_end_state"], location: here, line: 5)
        XCTAssertTrue(s.covers(check: "dead_end_state", at: SourceLocation(file: "a.swift", line: 5, column: 9)))
        XCTAssertFalse(s.covers(check: "dead_end_state", at: SourceLocation(file: "a.swift", line: 6, column: 9)))
        XCTAssertFalse(s.covers(check: "unreachable_state", at: SourceLocation(file: "a.swift", line: 5, column: 9)))
        XCTAssertFalse(s.covers(check: "dead_end_state", at: SourceLocation(file: "b.swift", line: 5, column: 9)))
        let all = Suppression(scope: .file, checks: ["all"], location: here, line: nil)
        XCTAssertTrue(all.covers(check: "shadowed_rule", at: SourceLocation(file: "a.swift", line: 90, column: 1)))
    }

    func testMalformedCommandsAreDiagnosedAndOtherCommentsIgnored() throws {
        let result = try extract("""
            // machine-viz:disabel:next dead_end_state
            // machine-viz:disable:next
            // see machine-viz: terminal in the docs (not a command: the comment does not start with it)
            let x = 1
            """)
        XCTAssertTrue(result.suppressions.isEmpty)
        XCTAssertEqual(result.diagnostics.map(\.location?.line), [1, 2])
        XCTAssertTrue(result.diagnostics[0].message.contains("unknown machine-viz command 'disabel:next'"))
        XCTAssertTrue(result.diagnostics[1].message.contains("names no check"))
    }

    static let lock = """
        enum LockState {
            case locked, unlocked
            // machine-viz: terminal
            case servicing
            case retired // machine-viz: terminal
        }
        enum LockInput { case unlock, lock, service, retire }

        let lockMappings: [Automaton<LockInput, LockState>.Mapping] = [
            .unlock  | .locked   => .unlocked,
            .lock    | .unlocked => .locked,
            .service | .locked   => .servicing,
            .retire  | .locked   => .retired,
        ]
        let lock = Automaton(state: .locked, input: inputs, mapping: reduce(lockMappings))
        """

    func testTerminalMarkersAboveAndAfterACase() throws {
        let machines = try extract(Self.lock).machines
        XCTAssertEqual(machines.count, 1)
        XCTAssertEqual(machines.first?.terminal.sorted(), ["retired", "servicing"])
        let unmarked = try extract(Self.lock.replacingOccurrences(of: "machine-viz: terminal", with: "note"), name: "Plain.swift").machines
        XCTAssertEqual(unmarked.first?.terminal, [], "without the markers nothing is terminal")
    }

    func testInitialMarkerOverridesTheCode() throws {
        let source = Self.lock.replacingOccurrences(of: "case locked, unlocked", with: "case locked\n    // machine-viz: initial\n    case unlocked")
        let machines = try extract(source).machines
        XCTAssertEqual(machines.first?.initial, "unlocked")
        XCTAssertEqual(try extract(Self.lock, name: "Plain.swift").machines.first?.initial, "locked")
    }
}
