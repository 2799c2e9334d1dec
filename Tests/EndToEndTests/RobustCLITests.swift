import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// Issue 11 from the command line: readable one-line errors with one exit status per class, no input
/// lost or parsed silently, the new lint options and reporters, determinism whatever the file order,
/// and atomic output under SIGKILL.
final class RobustCLITests: XCTestCase {
    typealias Run = CLIEndToEndTests.Run
    static let root = CLIEndToEndTests.root
    var temp: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: CLIEndToEndTests.binary.path) else { throw XCTSkip("build the binary first") }
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("mv-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let temp { try? FileManager.default.removeItem(at: temp) } }

    func run(_ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, stdout: FileHandle? = nil,
             stderr: FileHandle? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = CLIEndToEndTests.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? Self.root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        if let stdout { process.standardOutput = stdout } else { process.standardOutput = out }
        if let stderr { process.standardError = stderr } else { process.standardError = err }
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let data = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        if stderr != nil { try err.fileHandleForWriting.close() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self), data: data)
    }

    /// One `error:` line, nothing from Foundation or ArgumentParser, no usage text.
    func assertOneReadableLine(_ r: Run, status: Int32, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors.count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), r.stderr, file: file, line: line)
        for noise in ["NSCocoaErrorDomain", "ValidationError", "Usage:", "USAGE:", "error 512", "Error Domain"] {
            XCTAssertFalse(r.stderr.contains(noise), "\(noise) in: \(r.stderr)", file: file, line: line)
        }
    }

    // MARK: Errors a person can read

    func testWriteFailuresAreOneLineAndExitThree() throws {
        let login = "examples/harvest/Login.swift"
        assertOneReadableLine(try run(["render", login, "--format", "dot", "-o", temp.path]), status: 3,
                              contains: "cannot write \(temp.path): it is a folder")
        assertOneReadableLine(try run(["lint", "examples/switch", "--write-baseline", "/missing/dir/b.json"]), status: 3,
                              contains: "cannot write /missing/dir/b.json: the folder /missing/dir does not exist")
        assertOneReadableLine(try run(["lint", "examples/switch", "-o", temp.appendingPathComponent("no/such/r.txt").path]), status: 3,
                              contains: "does not exist")
        let blocker = temp.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        assertOneReadableLine(try run(["render", login, "--format", "dot", "--output-dir", blocker.appendingPathComponent("out").path]), status: 3,
                              contains: "cannot create the folder \(blocker.appendingPathComponent("out").path)")
        assertOneReadableLine(try run(["docs", login, "--output-dir", blocker.path]), status: 3,
                              contains: "cannot create the folder \(blocker.path): a file has that name")
        XCTAssertEqual(try String(contentsOf: blocker, encoding: .utf8), "x")
    }

    func testUnknownMachineSuggestsTheClosestNameWithoutUsage() throws {
        let r = try run(["render", "examples/tca/VoiceMemos.swift", "--machine", "RecordingFeature.phse", "--format", "dot"])
        assertOneReadableLine(r, status: 2, contains: "no machine named 'RecordingFeature.phse'; did you mean 'RecordingFeature.phase'?")
        let field = try run(["render", "examples/tca/VoiceMemos.swift", "--machine", "sync", "--format", "dot"])
        assertOneReadableLine(field, status: 2, contains: "did you mean 'SyncSettings.sync'?")
    }

    /// A pseudo-terminal by hand (glibc hides posix_openpt from Swift): unlock it, ask its number.
    /// The master is non-blocking, so reading it after a run returns what was written.
    func pseudoTerminal() throws -> (master: Int32, slave: Int32) {
        #if os(Linux)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock) == 0,
              ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number) == 0 else { throw XCTSkip("no pseudo-terminal") }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertEqual(isatty(slave), 1)
        return (master, slave)
        #else
        throw XCTSkip("pseudo-terminal test written for Linux")
        #endif
    }

    func testBinaryFormatsAreNotWrittenToATerminal() throws {
        let (master, slave) = try pseudoTerminal()
        defer { close(slave); close(master) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        for format in ["png", "pdf"] {
            let r = try run(["render", "examples/harvest/Login.swift", "--format", format], stdout: terminal)
            assertOneReadableLine(r, status: 2, contains: "\(format.uppercased()) is binary and standard output is a terminal: give -o FILE")
        }
        // a pipe is fine
        let piped = try run(["render", "examples/harvest/Login.swift", "--format", "png"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(Array(piped.data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    /// On a terminal, lint ends with the file count (`checked N files, M machines: K findings`); the
    /// progress line before it is drawn in place and erased. Through a pipe, or with --quiet, neither.
    func testLintCountsTheFilesOnATerminalOnly() throws {
        let (master, slave) = try pseudoTerminal()
        defer { close(slave); close(master) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        func drain() -> String {
            var text = Data(), buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }
                text.append(contentsOf: buffer[0..<n])
            }
            return String(decoding: text, as: UTF8.self)
        }
        let files = ["examples/harvest/Login.swift", "examples/Machines"]
        _ = try run(["lint", "--no-cache"] + files, stderr: terminal, environment: ["TERM": "xterm"])
        let shown = drain()
        let summary = try XCTUnwrap(shown.range(of: #"checked \d+ files, \d+ machines: \d+ findings?"#, options: .regularExpression), shown)
        XCTAssertTrue(shown[summary].hasPrefix("checked 4 files, "), shown)
        _ = try run(["lint", "--no-cache", "--quiet"] + files, stderr: terminal, environment: ["TERM": "xterm"])
        XCTAssertFalse(drain().contains("checked"), "--quiet")
        let piped = try run(["lint", "--no-cache"] + files)
        XCTAssertFalse(piped.stderr.contains("checked"), piped.stderr)
        XCTAssertFalse(piped.stderr.contains("\u{1B}[K") || piped.stderr.contains("\r"), "no progress through a pipe")
    }

    func testNoSwiftInputIsSaidAndExitsTwo() throws {
        let empty = temp.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try "# notes".write(to: empty.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let lint = try run(["lint"], in: empty)
        assertOneReadableLine(lint, status: 2, contains: "error: no Swift file to read in .")
        XCTAssertTrue(lint.stderr.contains("warning: no Swift files in ."), lint.stderr)
        for sub in ["analyze", "list", "render"] {
            let r = try run([sub, empty.path])
            assertOneReadableLine(r, status: 2, contains: "no Swift file to read in \(empty.path)")
        }
        let docs = try run(["docs", empty.path, "--output-dir", temp.appendingPathComponent("d").path])
        assertOneReadableLine(docs, status: 2, contains: "no Swift file to read")
        let text = empty.appendingPathComponent("README.md").path
        let named = try run(["lint", text])
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.stderr.contains("\(text) is not a Swift file"), named.stderr)
    }

    /// A path that does not exist beside one that does (a misspelt folder in a CI script) fails every
    /// command before anything is read or written: `docs` keeps the pages of what it would have missed.
    func testAMissingPathBesideGoodOnesFailsBeforeReading() throws {
        let good = temp.appendingPathComponent("Door.swift")
        try Self.door.write(to: good, atomically: true, encoding: .utf8)
        let missing = temp.appendingPathComponent("Sourcse").path
        for sub in ["lint", "analyze", "list", "render", "paths"] {
            let r = try run([sub, good.path, missing])
            assertOneReadableLine(r, status: 2, contains: "error: no such file or folder: \(missing); nothing was read")
        }
        let pages = temp.appendingPathComponent("pages")
        XCTAssertEqual(try run(["docs", good.path, "--output-dir", pages.path]).status, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted()
        XCTAssertEqual(try run(["docs", missing, temp.appendingPathComponent("Other.swift").path, good.path, "--output-dir", pages.path]).status, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted(), before)
    }

    /// Files named on the command line (a pre-commit hook's staged files) or as the editor's buffer that
    /// the configuration excludes: nothing linted, a note, and success.
    func testExcludedFilesNamedOnTheCommandLineAreLeftOutQuietly() throws {
        try FileManager.default.createDirectory(at: temp.appendingPathComponent("Gen"), withIntermediateDirectories: true)
        try Self.door.write(to: temp.appendingPathComponent("Gen/Door.swift"), atomically: true, encoding: .utf8)
        try "excluded:\n  - Gen\n".write(to: temp.appendingPathComponent(".machine-viz.yml"), atomically: true, encoding: .utf8)
        let named = try run(["lint", "Gen/Door.swift"], in: temp)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stderr.contains("Gen/Door.swift is excluded"), named.stderr)
        XCTAssertEqual(named.stdout, "")
        let buffer = try run(["lint", "--stdin-path", "Gen/Door.swift"], in: temp, stdin: Data(Self.door.utf8))
        XCTAssertEqual(buffer.status, 0, buffer.stderr)
        XCTAssertEqual(buffer.stdout, "")
    }

    /// `render --output-dir` names files as `docs` does: two machines whose names differ only in case do
    /// not overwrite each other on a case-insensitive file system; a corrupt baseline says why in words.
    func testRenderFileNamesAreUniqueIgnoringCaseAndBaselineErrorsAreWords() throws {
        let source = """
        enum Floor { case ground, top, roof }
        final class Lift {
            var pos: Floor = .ground
            func up() { switch pos { case .ground: pos = .top; case .top, .roof: break } }
            func down() { if pos == .top { pos = .ground } }
        }
        final class LIFT {
            var pos: Floor = .ground
            func up() { switch pos { case .ground: pos = .top; case .top, .roof: break } }
            func down() { if pos == .top { pos = .ground } }
        }
        """
        let file = temp.appendingPathComponent("Lifts.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let out = temp.appendingPathComponent("out")
        XCTAssertEqual(try run(["render", file.path, "--format", "dot", "--output-dir", out.path]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["LIFT.pos-2.dot", "Lift.pos.dot"])
        let baseline = temp.appendingPathComponent("b.json")
        try "{ \"version\": 1 }".write(to: baseline, atomically: true, encoding: .utf8)
        let bad = try run(["lint", file.path, "--baseline", baseline.path])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("not a machine-viz baseline (JSON with `version` and `findings`): `findings` is missing"), bad.stderr)
    }

    // MARK: Lint options and reporters

    static let door = LintEndToEndTests.door

    func testStdinPathLintsStandardInputUnderThatName() throws {
        let r = try run(["lint", "--stdin-path", "Sources/Door.swift", "--reporter", "json"], stdin: Data(Self.door.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: r.data) as? [[String: Any]])
        XCTAssertEqual(findings.count, 3)
        XCTAssertEqual(Set(findings.compactMap { $0["file"] as? String }), ["Sources/Door.swift"])
        let analyze = try run(["analyze", "--stdin-path", "Door.swift"], stdin: Data(Self.door.utf8))
        XCTAssertTrue(analyze.stdout.contains("\"file\" : \"Door.swift\""), analyze.stdout)
        let both = try run(["lint", "--stdin-path", "A.swift", "examples"])
        XCTAssertEqual(both.status, 2)
    }

    func testOnlyCheckReportsOnlyThoseChecks() throws {
        try Self.door.write(to: temp.appendingPathComponent("Door.swift"), atomically: true, encoding: .utf8)
        let all = try run(["lint", "--reporter", "json"], in: temp)
        XCTAssertEqual(try XCTUnwrap(JSONSerialization.jsonObject(with: all.data) as? [[String: Any]]).count, 3)
        let one = try run(["lint", "--reporter", "json", "--only-check", "unreachable_state"], in: temp)
        let checks = try XCTUnwrap(JSONSerialization.jsonObject(with: one.data) as? [[String: Any]]).compactMap { $0["check"] as? String }
        XCTAssertEqual(checks, ["unreachable_state"])
        let two = try run(["lint", "--only-check", "unreachable_state", "--only-check", "unused_input"], in: temp)
        XCTAssertTrue(two.stdout.contains("[unused_input]") && two.stdout.contains("[unreachable_state]"), two.stdout)
        XCTAssertFalse(two.stdout.contains("[dead_end_state]"), two.stdout)
        let bad = try run(["lint", "--only-check", "unreachable"], in: temp)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown check 'unreachable'"), bad.stderr)
    }

    func testStaleBaselineEntriesAreWarnedAbout() throws {
        let file = temp.appendingPathComponent("Door.swift")
        try Self.door.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["lint", "--write-baseline", "b.json"], in: temp).status, 0)
        let clean = try run(["lint", "--baseline", "b.json"], in: temp)
        XCTAssertFalse(clean.stderr.contains("no longer"), clean.stderr)
        // 'broken' is removed: its unreachable_state entry matches nothing any more
        try Self.door.replacingOccurrences(of: "    case broken\n", with: "").write(to: file, atomically: true, encoding: .utf8)
        let stale = try run(["lint", "--baseline", "b.json"], in: temp)
        XCTAssertEqual(stale.status, 0)
        XCTAssertTrue(stale.stderr.contains("b.json: warning: 1 baseline entry no longer matches any finding (fixed or renamed): door unreachable_state broken"),
                      stale.stderr)
    }

    func testJUnitAndGitLabReportsParse() throws {
        try Self.door.write(to: temp.appendingPathComponent("Door.swift"), atomically: true, encoding: .utf8)
        let junit = try run(["lint", "--reporter", "junit"], in: temp)
        XCTAssertEqual(junit.status, 0, junit.stderr)
        let xml = try XMLDocument(data: junit.data)
        XCTAssertEqual(xml.rootElement()?.name, "testsuites")
        XCTAssertEqual(try xml.nodes(forXPath: "//testcase").count, 3)
        XCTAssertEqual(try xml.nodes(forXPath: "//failure").count + (try xml.nodes(forXPath: "//skipped").count), 3)
        let gitlab = try run(["lint", "--reporter", "gitlab"], in: temp)
        let issues = try XCTUnwrap(JSONSerialization.jsonObject(with: gitlab.data) as? [[String: Any]])
        XCTAssertEqual(issues.count, 3)
        XCTAssertEqual(Set(issues.compactMap { $0["fingerprint"] as? String }).count, 3, "fingerprints are unique")
        for issue in issues {
            XCTAssertEqual((issue["location"] as? [String: Any])?["path"] as? String, "Door.swift")
            XCTAssertNotNil(((issue["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int)
            XCTAssertTrue(["info", "minor", "major", "critical", "blocker"].contains(issue["severity"] as? String ?? ""))
        }
    }

    // MARK: Determinism

    /// Every output is the same bytes for repeated runs, for the files in any order (sorted, reversed,
    /// shuffled) and for every `--jobs` count (1, 2, 4), each order with each count. `lint` runs with
    /// `--no-cache`: a cached result would hide a difference.
    func testSameBytesForRepeatedRunsAnyFileOrderAndEveryJobCount() throws {
        let examples = Self.root.appendingPathComponent("examples")
        var files: [String] = []
        let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: examples.path))
        for case let path as String in walker where path.hasSuffix(".swift") && !path.hasPrefix("PluginSample") {
            files.append("examples/" + path)
        }
        files.sort()
        XCTAssertGreaterThan(files.count, 10)
        var generator = SeededGenerator(seed: 11)
        let orders = [files, files.reversed(), files.shuffled(using: &generator), files.shuffled(using: &generator)]
        let commands: [[String]] = [
            ["analyze"], ["lint", "--no-cache", "--reporter", "json"], ["lint", "--no-cache"], ["list"],
            ["render", "--machine", "RecordingFeature.phase", "--format", "dot"],
            ["render", "--machine", "RecordingFeature.phase", "--format", "markdown"],
            ["render", "--machine", "RecordingFeature.phase", "--format", "mermaid"],
        ]
        for command in commands {
            var first: Run?
            var runs = 0
            for (i, order) in (orders + [files]).enumerated() {
                for jobs in [1, 2, 4] {
                    let r = try run(Array(command.prefix(1)) + order + Array(command.dropFirst()) + ["--jobs", "\(jobs)"])
                    let what = "\(command.joined(separator: " ")) --jobs \(jobs), order \(i)"
                    XCTAssertFalse(r.data.isEmpty, what)
                    if let first {
                        XCTAssertEqual(r.data, first.data, "\(what) gives other bytes")
                        XCTAssertEqual(r.stderr, first.stderr, "\(what) gives other diagnostics")
                        XCTAssertEqual(r.status, first.status, what)
                    } else {
                        first = r
                    }
                    runs += 1
                }
            }
            XCTAssertEqual(runs, 15)
        }
    }

    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    // MARK: Atomic output

    /// A run killed half-way through writing `-o FILE` leaves the old file byte for byte and nothing
    /// beside it. The test hook MACHINE_VIZ_TEST_PAUSE_WHILE_WRITING makes the real write path stop
    /// after half the bytes, so the kill lands mid-write every time.
    func testAKilledWriteLeavesTheOldFileAndNoTemporaryFile() throws {
        for (command, name) in [(["render", "examples", "--exclude", "examples/PluginSample", "--format", "json"], "out.json"),
                                (["lint", "examples", "--reporter", "json"], "report.json")] {
            let target = temp.appendingPathComponent(name)
            let old = Data("previous contents\n".utf8)
            try old.write(to: target)
            let process = Process()
            process.executableURL = CLIEndToEndTests.binary
            process.arguments = command + ["-o", target.path]
            process.currentDirectoryURL = Self.root
            process.environment = ProcessInfo.processInfo.environment.merging(["MACHINE_VIZ_TEST_PAUSE_WHILE_WRITING": "30"]) { $1 }
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            try process.run()
            // wait for the write to be half done
            var said = Data()
            let deadline = Date().addingTimeInterval(120)
            while !String(decoding: said, as: UTF8.self).contains("paused while writing"), Date() < deadline {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said.append(chunk)
            }
            XCTAssertTrue(String(decoding: said, as: UTF8.self).contains("paused while writing \(target.path)"), String(decoding: said, as: UTF8.self))
            #if os(Linux)
            // half the bytes are written, to a file without a name
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), [name])
            #endif
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(try Data(contentsOf: target), old, "\(name): the old file is intact")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), [name], "no temporary file is left")

            // the same run, not killed, replaces the file whole
            let done = try run(command + ["-o", target.path])
            XCTAssertTrue([0, 1].contains(done.status), done.stderr)
            let written = try Data(contentsOf: target)
            XCTAssertNotEqual(written, old)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: written), name)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), [name])
            try FileManager.default.removeItem(at: target)
        }
    }
}
