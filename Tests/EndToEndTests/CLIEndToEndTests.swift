import Foundation
import XCTest

/// Runs the built binary on the bundled examples and on bad input, checking stdout, stderr, files
/// and exit status.
final class CLIEndToEndTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary: URL = {
        let beside = Bundle(for: CLIEndToEndTests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("machine-viz")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : root.appendingPathComponent(".build/debug/machine-viz")
    }()

    struct Run { var status: Int32; var stdout: String; var stderr: String; var data: Data }

    func run(_ arguments: [String], in directory: URL = root) throws -> Run { try Self.run(arguments, in: directory) }

    static func run(_ arguments: [String], in directory: URL = root) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self), data: data)
    }

    var temp: URL!

    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("mv-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    func testAnalyzeExamplesFolder() throws {
        let r = try run(["analyze", "examples", "--exclude", "examples/PluginSample"])
        // the dictionary-table example names a key twice on purpose: an error finding, so status 1
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(String(decoding: r.data, as: UTF8.self).contains("\"check\" : \"duplicate_key\""))
        XCTAssertEqual(try run(["analyze", "examples/tca"]).status, 0, "warnings and notes only")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: r.data) as? [String: Any])
        let machines = try XCTUnwrap(doc["machines"] as? [[String: Any]])
        let dialects = Set(machines.compactMap { $0["dialect"] as? String })
        XCTAssertTrue(dialects.isSuperset(of: ["operator-table", "mapping-function", "switch-method", "tca", "actomaton"]), "\(dialects)")
        // same input, same bytes
        XCTAssertEqual(try run(["analyze", "examples", "--exclude", "examples/PluginSample"]).data, r.data)
    }

    func testAnalyzeUnreadableInputStillWritesTheDocument() throws {
        let garbage = temp.appendingPathComponent("bad.swift")
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: garbage)
        let r = try run(["analyze", garbage.path])
        XCTAssertEqual(r.status, 2)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: r.data) as? [String: Any])
        XCTAssertEqual((doc["machines"] as? [Any])?.count, 0)
        XCTAssertTrue(String(describing: doc["diagnostics"]).contains("binary file"))
        let missing = try run(["analyze", temp.appendingPathComponent("nope.swift").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stdout.contains("no such file or folder"))
    }

    func testUsageErrorsExitTwo() throws {
        let r = try run(["analyze", "--format", "yaml", "examples"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("yaml"), r.stderr)
        XCTAssertEqual(try run(["render", "examples", "--bogus"]).status, 2)
    }

    func testRenderSVGToAFileAndMachineSelection() throws {
        let out = temp.appendingPathComponent("login.svg")
        let r = try run(["render", "examples/harvest/Login.swift", "--format", "svg", "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let svg = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(svg.contains("<svg"))
        XCTAssertTrue(svg.contains("loggingOut"))
        let several = try run(["render", "examples/tca/VoiceMemos.swift", "--format", "dot"])
        XCTAssertNotEqual(several.status, 0)
        XCTAssertTrue(several.stderr.contains("--machine"), several.stderr)
        let one = try run(["render", "examples/tca/VoiceMemos.swift", "--machine", "SyncSettings.sync", "--format", "dot"])
        XCTAssertEqual(one.status, 0)
        XCTAssertTrue(one.stdout.hasPrefix("digraph \"SyncSettings.sync\""))
        let unknown = try run(["render", "examples/tca/VoiceMemos.swift", "--machine", "Nope"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("RecordingFeature.phase"), "lists the machines it found")
    }

    func testRenderOutputDirWritesEveryMachine() throws {
        let r = try run(["render", "examples/tca/VoiceMemos.swift", "--format", "png", "--output-dir", temp.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: temp.path).sorted()
        XCTAssertEqual(files, ["RecordingFeature.alert.png", "RecordingFeature.isMuted.png", "RecordingFeature.phase.png",
                               "SyncSettings.isSaving.png", "SyncSettings.sync.png"])
    }

    func testAFailedWriteLeavesNothingBehind() throws {
        let blocked = temp.appendingPathComponent("not-a-dir")
        try Data("x".utf8).write(to: blocked)
        let r = try run(["render", "examples/harvest/Login.swift", "--format", "svg", "-o", blocked.appendingPathComponent("x.svg").path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("cannot write"), r.stderr)
        XCTAssertEqual(try String(contentsOf: blocked, encoding: .utf8), "x")
    }

    func testListAndLintFormat() throws {
        let list = try run(["list", "examples/switch"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("Crossing.light\tswitch-method\t6 states, 4 inputs"), list.stdout)
        let lint = try run(["lint", "examples/switch"])
        XCTAssertTrue(lint.stdout.contains("examples/switch/TrafficLight.swift:35:9: warning:"), lint.stdout)
        XCTAssertTrue(lint.stdout.contains("[shadowed_rule]"))
        XCTAssertEqual(lint.status, 0, "warnings only")
        XCTAssertEqual(try run(["lint", "examples/switch", "--strict"]).status, 1)
    }

    func testHelpExplainsEachSubcommand() throws {
        for sub in ["analyze", "render", "lint", "list"] {
            let r = try run([sub, "--help"])
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains("Example"), "\(sub) --help shows an example")
        }
    }
}
