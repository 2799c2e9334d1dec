import Foundation
import XCTest

/// Runs the built `machine-viz` (`.build/debug/machine-viz`, found from this file's path) in a
/// temporary project folder and checks its output and exit status.
final class LintEndToEndTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The binary beside the test bundle (the same build), else `.build/debug/machine-viz` in the package.
    static let binary: URL = {
        let besideBundle = Bundle(for: LintEndToEndTests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("machine-viz")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return packageRoot.appendingPathComponent(".build/debug/machine-viz")
    }()

    var project: URL!

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let door = """
        enum Door {
            case closed, open
            case broken
            case welded
        }
        enum DoorInput { case push, pull, weld, kick }

        let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
            .push | .closed => .open,
            .pull | .open   => .closed,
            .weld | .closed => .welded,
        ]
        let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))

        """

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            XCTFail("build the binary first: swift build (looked for \(Self.binary.path))")
            throw XCTSkip("no binary")
        }
        project = FileManager.default.temporaryDirectory.appendingPathComponent("mv-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try write("Sources/Door.swift", Self.door)
    }

    override func tearDownWithError() throws {
        if let project { try? FileManager.default.removeItem(at: project) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: project.appendingPathComponent(path).path) ?? Data(), as: UTF8.self)
    }

    func run(_ arguments: [String], in folder: String = "") throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder.isEmpty ? project : project.appendingPathComponent(folder)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    // MARK: Exit codes and the default reporter

    func testWarningsPassUnlessStrict() throws {
        let plain = try run(["lint"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.hasPrefix("Sources/Door.swift:3:10: warning: door: state 'broken' is declared but no sequence of inputs from 'closed' reaches it [unreachable_state]\n"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("[dead_end_state]"))
        XCTAssertTrue(plain.stdout.contains(": note: door: input 'kick' is declared but no rule handles it in any state [unused_input]"), plain.stdout)
        XCTAssertEqual(try run(["lint", "--strict"]).status, 1)
        XCTAssertEqual(try run(["lint", "Sources", "--strict", "--exclude", "Sources/Door.swift"]).status, 2, "no readable input")
        XCTAssertEqual(try run(["lint", "Missing.swift"]).status, 2)
    }

    func testCleanCodeExitsZeroEvenWhenStrict() throws {
        try write("Sources/Door.swift", """
            enum Door { case closed, open }
            enum DoorInput { case push, pull }
            let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
                .push | .closed => .open,
                .pull | .open   => .closed,
            ]
            let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
            """)
        let r = try run(["lint", "--strict"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "")
    }

    // MARK: Configuration

    func testConfigurationFromTheWorkingDirectoryOrAParent() throws {
        try write(".machine-viz.yml", """
            included: [Sources]
            severity:
              dead_end_state: error
            disabled_checks: [unused_input]
            machines:
              door:
                ignored: [broken]
            """)
        let r = try run(["lint"])
        XCTAssertEqual(r.status, 1, "dead_end_state is an error now: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("Sources/Door.swift:4:10: error: door: state 'welded'"), r.stdout)
        XCTAssertFalse(r.stdout.contains("unused_input"))
        XCTAssertFalse(r.stdout.contains("broken"), "ignored state")
        // From a subfolder, the file in the parent is found and its paths are relative to it.
        try write("Sources/Sub/Empty.swift", "let x = 1\n")
        let nested = try run(["lint"], in: "Sources/Sub")
        XCTAssertEqual(nested.status, 1, nested.stdout + nested.stderr)
        XCTAssertTrue(nested.stdout.contains("Door.swift:4:10: error:"), nested.stdout)
    }

    func testExcludedPathsFromTheConfigurationAndTheCommandLine() throws {
        try write("Sources/Legacy/Old.swift", Self.door.replacingOccurrences(of: "Door", with: "OldDoor")
            .replacingOccurrences(of: "doorRules", with: "oldRules").replacingOccurrences(of: "let door ", with: "let oldDoor "))
        XCTAssertTrue(try run(["lint"]).stdout.contains("Sources/Legacy/Old.swift"))
        try write(".machine-viz.yml", "excluded: [Sources/Legacy]\n")
        let r = try run(["lint"])
        XCTAssertFalse(r.stdout.contains("Legacy"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Sources/Door.swift"), r.stdout)
        XCTAssertFalse(try run(["lint", "Sources/Legacy/Old.swift"]).stdout.contains("Legacy"), "excluded wins over a named path")
        try write(".machine-viz.yml", "\n")
        XCTAssertEqual(try run(["lint", "--exclude", "Sources/Door.swift"]).stdout.contains("Door.swift:"), false)
    }

    func testSameBytesWhateverThePathOrder() throws {
        try write("Sources/B/Second.swift", Self.door.replacingOccurrences(of: "Door", with: "Gate")
            .replacingOccurrences(of: "doorRules", with: "gateRules").replacingOccurrences(of: "let door ", with: "let gate "))
        for reporter in ["xcode", "sarif"] {
            let one = try run(["lint", "Sources/B", "Sources/Door.swift", "--reporter", reporter]).stdout
            let two = try run(["lint", "Sources/Door.swift", "Sources/B", "--reporter", reporter]).stdout
            XCTAssertEqual(one, two, reporter)
            XCTAssertTrue(one.contains("Second.swift") && one.contains("Door.swift"))
        }
    }

    /// Files are read and parsed on several threads: the report is the same bytes for any job count and
    /// any order of the paths (many files, so that the workers interleave).
    func testSameBytesWhateverTheJobCountAndFileOrder() throws {
        var paths: [String] = []
        for i in 0..<24 {
            let name = "Unit\(i)"
            try write("Sources/Many/\(name).swift", Self.door.replacingOccurrences(of: "Door", with: name)
                .replacingOccurrences(of: "doorRules", with: "rules\(i)").replacingOccurrences(of: "let door ", with: "let unit\(i) "))
            paths.append("Sources/Many/\(name).swift")
        }
        let one = try run(["lint", "--no-cache", "--jobs", "1", "--reporter", "json"] + paths)
        XCTAssertTrue(one.stdout.contains("Unit23.swift") && one.stdout.contains("Unit0.swift"), one.stdout)
        for jobs in ["2", "5"] {
            XCTAssertEqual(try run(["lint", "--no-cache", "--jobs", jobs, "--reporter", "json"] + paths).stdout, one.stdout, "--jobs \(jobs)")
            XCTAssertEqual(try run(["lint", "--no-cache", "--jobs", jobs, "--reporter", "json"] + paths.reversed()).stdout, one.stdout,
                           "--jobs \(jobs), reversed order")
        }
        XCTAssertEqual(try run(["list", "--jobs", "1", "Sources/Many"]).stdout, try run(["list", "--jobs", "3", "Sources/Many"]).stdout)
        XCTAssertEqual(try run(["lint", "--jobs", "0"]).status, 2, "--jobs must be at least 1")
    }

    /// A second lint of unchanged files reads the result cache; any change to a file, the configuration
    /// or the options computes it again.
    func testResultCacheIsReusedOnlyForUnchangedInputs() throws {
        let cache = project.appendingPathComponent("cache").path
        let first = try run(["lint", "Sources", "--cache-path", cache])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("lint-") }
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(try run(["lint", "Sources", "--cache-path", cache]).stdout, first.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("lint-") }, entries, "reused, not rewritten")
        XCTAssertTrue(first.stdout.contains("welded"), first.stdout)
        // a changed file: the dead end is gone
        try write("Sources/Door.swift", Self.door.replacingOccurrences(of: ".weld | .closed => .welded,", with: ".weld | .closed => .welded,\n    .kick | .welded => .closed,"))
        let changed = try run(["lint", "Sources", "--cache-path", cache])
        XCTAssertNotEqual(changed.stdout, first.stdout)
        XCTAssertEqual(changed.stdout, try run(["lint", "Sources", "--no-cache"]).stdout)
        // one byte of a comment changed, the length kept: a new entry each time
        let kicked = Self.door.replacingOccurrences(of: ".weld | .closed => .welded,", with: ".weld | .closed => .welded,\n    .kick | .welded => .closed,")
        for (k, tail) in ["// a\n", "// b\n", "//  \n"].enumerated() {
            try write("Sources/Door.swift", kicked + tail)
            _ = try run(["lint", "Sources", "--cache-path", cache])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("lint-") }.count, 3 + k, tail)
        }
        // a changed configuration
        try write(".machine-viz.yml", "disabled_checks: [dead_end_state, unreachable_state, unused_input]\n")
        XCTAssertEqual(try run(["lint", "Sources", "--cache-path", cache]).stdout, try run(["lint", "Sources", "--no-cache"]).stdout)
        // a cache that cannot be written is no cache, not an error
        try write("blocker", "x")
        XCTAssertEqual(try run(["lint", "Sources", "--cache-path", "blocker/cache"]).stdout, try run(["lint", "Sources", "--no-cache"]).stdout)
    }

    func testTerminalAndInitialFromTheConfiguration() throws {
        try write("ci.yml", "machines:\n  door:\n    terminal: [welded]\n    initial: open\n")
        let r = try run(["lint", "Sources", "--config", "ci.yml", "--strict"])
        XCTAssertFalse(r.stdout.contains("dead_end_state"), r.stdout)
        XCTAssertTrue(r.stdout.contains("from 'open' reaches it"), "initial state from the file: \(r.stdout)")
        XCTAssertEqual(r.status, 1, "broken is still unreachable")
    }

    func testBadConfigurationExitsTwoNamingFileLineAndKey() throws {
        try write(".machine-viz.yml", "included: [Sources]\nseverity:\n  dead_end_state: loud\n")
        let r = try run(["lint"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains(".machine-viz.yml:3:19: error: 'severity.dead_end_state': 'loud' is not a severity"), r.stderr)
        XCTAssertEqual(r.stdout, "")

        try write(".machine-viz.yml", "includes: [Sources]\n")
        let unknown = try run(["lint"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains(".machine-viz.yml:1:1: error: 'includes': unknown key 'includes' (did you mean 'included'?)"), unknown.stderr)

        try write(".machine-viz.yml", "machines:\n  door:\n    terminal: [melted]\n")
        let state = try run(["lint"])
        XCTAssertEqual(state.status, 2)
        XCTAssertTrue(state.stderr.contains(".machine-viz.yml:3: error: 'machines.door.terminal': 'melted' is not a state"), state.stderr)

        XCTAssertEqual(try run(["lint", "--config", "nowhere.yml"]).status, 2)
    }

    // MARK: Inline commands

    func testInlineSuppressionsAndUnusedOnes() throws {
        try write("Sources/Door.swift", Self.door
            .replacingOccurrences(of: "    case broken\n", with: "    // machine-viz:disable:next unreachable_state - spare part\n    case broken\n")
            .replacingOccurrences(of: "    case welded\n", with: "    case welded // machine-viz: terminal\n")
            + "// machine-viz:disable unused_input, overlapping_rules\n")
        let r = try run(["lint", "--strict"])
        XCTAssertFalse(r.stdout.contains("[unreachable_state]"), r.stdout)
        XCTAssertFalse(r.stdout.contains("[dead_end_state]"), r.stdout)
        XCTAssertFalse(r.stdout.contains("[unused_input]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Door.swift:15:1: warning: machine-viz:disable overlapping_rules suppresses nothing"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1, r.stdout)
        XCTAssertEqual(r.status, 1, "an unused suppression is a warning")
        try write(".machine-viz.yml", "disabled_checks: [unused_suppression]\n")
        XCTAssertEqual(try run(["lint", "--strict"]).status, 0)
    }

    // MARK: Baseline

    func testBaselineFailsOnlyOnNewFindings() throws {
        let write1 = try run(["lint", "--write-baseline", "baseline.json", "--strict"])
        XCTAssertEqual(write1.status, 1, "writing a baseline still reports")
        XCTAssertTrue(read("baseline.json").contains("\"subject\" : \"broken\""), read("baseline.json"))
        XCTAssertEqual(try run(["lint", "--baseline", "baseline.json", "--strict"]).status, 0)
        // Moving code keeps the old findings known.
        try write("Sources/Door.swift", "// a comment\n\n" + Self.door)
        let moved = try run(["lint", "--baseline", "baseline.json", "--strict"])
        XCTAssertEqual(moved.status, 0, moved.stdout)
        XCTAssertEqual(moved.stdout, "")
        // A new state that is unreachable is new.
        try write("Sources/Door.swift", Self.door.replacingOccurrences(of: "case broken", with: "case broken, melted"))
        let fresh = try run(["lint", "--baseline", "baseline.json", "--strict"])
        XCTAssertEqual(fresh.status, 1)
        XCTAssertTrue(fresh.stdout.contains("state 'melted'"), fresh.stdout)
        XCTAssertFalse(fresh.stdout.contains("state 'broken'"), fresh.stdout)
        try write("bad.json", "{}")
        XCTAssertEqual(try run(["lint", "--baseline", "bad.json"]).status, 2)
    }

    // MARK: Reporters

    func testEveryReporterRunsAndParses() throws {
        for name in ["xcode", "json", "sarif", "github-actions", "checkstyle", "markdown"] {
            let r = try run(["lint", "--reporter", name])
            XCTAssertEqual(r.status, 0, name + r.stderr)
            XCTAssertFalse(r.stdout.isEmpty, name)
        }
        let sarif = try run(["lint", "--reporter", "sarif", "-o", "out.sarif"])
        XCTAssertEqual(sarif.stdout, "")
        let doc = try JSONSerialization.jsonObject(with: Data(read("out.sarif").utf8)) as? [String: Any]
        XCTAssertEqual(doc?["version"] as? String, "2.1.0")
        let json = try JSONSerialization.jsonObject(with: Data(try run(["lint", "--reporter", "json"]).stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(json?.count, 3)
        let gh = try run(["lint", "--reporter", "github-actions"]).stdout
        XCTAssertTrue(gh.contains("::warning file=Sources/Door.swift,line=3,col=10,title=machine-viz unreachable_state (Unreachable state)::door: state 'broken'"), gh)
        XCTAssertTrue(gh.contains("::notice "))
        try write(".machine-viz.yml", "reporter: checkstyle\n")
        XCTAssertTrue(try run(["lint"]).stdout.hasPrefix("<?xml"))
        let bad = try run(["lint", "--reporter", "html"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown reporter 'html'"), bad.stderr)
    }

    func testHelpExplainsEveryOption() throws {
        let help = try run(["lint", "--help"]).stdout
        for option in ["--reporter", "--config", "--strict", "--baseline", "--write-baseline", "--exclude", "--output",
                       "github-actions", "sarif", "checkstyle", "markdown", ".machine-viz.yml", "machine-viz:disable:next", "Exit status"] {
            XCTAssertTrue(help.contains(option), "lint --help does not mention \(option)")
        }
    }

    func testAnalyzeIgnoresLintSettings() throws {
        try write(".machine-viz.yml", "disabled_checks: [unreachable_state]\n")
        let r = try run(["analyze", "Sources/Door.swift"])
        XCTAssertTrue(r.stdout.contains("\"unreachable_state\""), "analyze keeps its contract")
    }
}
