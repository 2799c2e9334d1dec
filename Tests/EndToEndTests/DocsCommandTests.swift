import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// Runs the built binary (`.build/debug/machine-viz`, found from this file's path) on `examples/`.
/// Build first: `swift build --build-tests`.
final class DocsCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/machine-viz")
    static let examples = root.appendingPathComponent("examples/Machines")

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], in directory: URL? = nil) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw XCTSkip("build the binary first: \(Self.binary.path) is missing")
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? Self.root
        let out = Pipe()
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let err = try FileHandle(forWritingTo: errFile)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = try Data(contentsOf: errFile)
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A copy of examples/Machines plus a machine whose name is hostile HTML (a raw identifier).
    func sources(in tmp: URL) throws -> URL {
        let src = tmp.appendingPathComponent("src")
        try FileManager.default.copyItem(at: Self.examples, to: src)
        try Self.hostileSource.write(to: src.appendingPathComponent("Hostile.swift"), atomically: true, encoding: .utf8)
        return src
    }

    /// A raw identifier (Swift 6.2): the machine is named after the automaton variable, backticks included.
    static let hostile = "<b>&\"x\"</b>"
    static let hostileName = "`\(hostile)`"
    static let hostileSource = """
    enum Gate { case shut, ajar }
    enum GateInput { case push, pull }

    let gateMappings: [Automaton<GateInput, Gate>.Mapping] = [
        .push | .shut => .ajar,
        .pull | .ajar => .shut,
    ]

    let \(hostileName) = Automaton(state: .shut, input: gateSignal, mapping: reduce(gateMappings))

    """

    func testDocsOnExamplesWritesEveryFileAndValidHTML() throws {
        let tmp = try temporaryFolder()
        let src = try sources(in: tmp)
        let out = tmp.appendingPathComponent("out")
        let result = try run(["docs", "src", "--output-dir", "out"], in: tmp)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Not a terminal: no progress, carriage returns or escape codes.
        XCTAssertFalse(result.stderr.contains("\r") || result.stderr.contains("\u{1B}"), result.stderr)
        _ = src

        let list = try run(["list", "src"], in: tmp)
        let names = list.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        XCTAssertTrue(names.contains(Self.hostileName), "extractor did not find the hostile machine: \(list.stdout)")
        XCTAssertGreaterThanOrEqual(names.count, 4)

        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertTrue(files.contains("index.html"))
        XCTAssertEqual(files.filter { $0.hasSuffix(".svg") }.count, names.count, "\(files)")
        XCTAssertEqual(files.filter { $0.hasSuffix(".mmd") }.count, names.count, "\(files)")
        XCTAssertEqual(files.filter { $0.hasSuffix(".md") }.count, names.count, "\(files)")

        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains(Self.hostile), "the hostile name went into the page unescaped")
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertFalse(html.contains("https://"), "the page must work offline")
        XCTAssertTrue(html.contains("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;"))

        // Parse it as XML (XHTML) and check its structure.
        let document = try XMLDocument(data: Data(html.utf8), options: [])
        func nodes(_ xpath: String) throws -> [XMLNode] { try document.nodes(forXPath: xpath) }
        let sections = try nodes("//*[local-name()='section'][@class='machine']")
        XCTAssertEqual(sections.count, names.count)
        let headings = try nodes("//*[local-name()='section'][@class='machine']/*[local-name()='h2']").compactMap(\.stringValue)
        XCTAssertEqual(Set(headings), Set(names))
        for image in try nodes("//*[local-name()='img']/@src").compactMap(\.stringValue) {
            XCTAssertFalse(image.contains("/") || image.contains(":"), "not a relative file next to the page: \(image)")
            let svg = try String(contentsOf: out.appendingPathComponent(image.removingPercentEncoding!), encoding: .utf8)
            XCTAssertTrue(svg.contains("<svg"), image)
        }
        for link in try nodes("//*[local-name()='a']/@href").compactMap(\.stringValue) where !link.hasPrefix("#") {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(link.removingPercentEncoding!).path), link)
        }
        // Findings with witnesses are on the page: the lock's dead end `servicing` is reached by `service`.
        let cells = try nodes("//*[local-name()='td']").compactMap(\.stringValue)
        XCTAssertTrue(cells.contains("dead_end_state"))
        XCTAssertTrue(cells.contains("service"), "witness of the dead end missing")

        // The Markdown page of the hostile machine escapes its name too.
        let mdName = files.first { $0.hasSuffix(".md") && $0.hasPrefix("__b_") }
        let md = try String(contentsOf: out.appendingPathComponent(try XCTUnwrap(mdName)), encoding: .utf8)
        XCTAssertTrue(md.hasPrefix("# \\`&lt;b&gt;&amp;\"x\"&lt;/b&gt;\\`\n"), md)
    }

    /// `docs examples/` from the repository root, as the docs describe it: every example machine,
    /// including the plugin sample's, with relative paths in the pages.
    func testDocsOnTheExamplesFolder() throws {
        let out = try temporaryFolder().appendingPathComponent("out")
        let result = try run(["docs", "examples/", "--output-dir", out.path, "--title", "Examples & <friends>"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        let document = try XMLDocument(data: Data(html.utf8), options: [])
        XCTAssertEqual(try document.nodes(forXPath: "//*[local-name()='title']").first?.stringValue, "Examples & <friends>")
        let headings = try document.nodes(forXPath: "//*[local-name()='section'][@class='machine']/*[local-name()='h2']").compactMap(\.stringValue)
        XCTAssertTrue(Set(headings).isSuperset(of: ["lock", "valve", "Junction.light", "Turnstile.state", "auth", "RecordingFeature.phase"]), "\(headings)")
        XCTAssertTrue(html.contains("examples/Machines/DoorLock.swift:40:35"), "paths stay as given")
        let turnstile = try String(contentsOf: out.appendingPathComponent("Turnstile.state.md"), encoding: .utf8)
        XCTAssertTrue(turnstile.contains("| warning | dead\\_end\\_state | examples/PluginSample/Sources/Turnstile/Turnstile.swift:3 |"), turnstile)
        XCTAssertTrue(turnstile.contains("| kick |"), "witness of the dead end")
    }

    /// docs/example (committed, with every finding's trace drawn; the README shows some of them) is
    /// what `scripts/render-examples.sh` writes: regenerate it there when this fails.
    func testTheCommittedExampleDocsAreCurrent() throws {
        let check = try run(["docs", "examples", "--exclude", "examples/PluginSample", "--output-dir", "docs/example",
                             "--title", "machine-viz examples", "--traces", "--check"])
        XCTAssertEqual(check.status, 0, "docs/example is stale: run scripts/render-examples.sh\n" + check.stdout + check.stderr)
        let phase = try String(contentsOf: Self.root.appendingPathComponent("docs/example/RecordingFeature.phase.md"), encoding: .utf8)
        XCTAssertTrue(phase.contains("### Trace: stale\\_effect\\_output finished"), phase)
        XCTAssertTrue(phase.contains("(RecordingFeature.phase.stale_effect_output.finished.svg)"), phase)
        // every drawing the README shows exists
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let images = readme.components(separatedBy: "](").dropFirst().compactMap { $0.split(separator: ")").first.map(String.init) }
            .filter { $0.hasSuffix(".svg") }
        XCTAssertTrue(images.contains("docs/example/RecordingFeature.phase.stale_effect_output.finished.svg"), "\(images)")
        for image in images {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(image).path), image)
        }
    }

    func testDocsIsDeterministicAndCheckFindsStaleFiles() throws {
        let tmp = try temporaryFolder()
        let src = try sources(in: tmp)
        XCTAssertEqual(try run(["docs", "src", "--output-dir", "out"], in: tmp).status, 0)

        // Fresh: --check passes and a second run rewrites nothing.
        let fresh = try run(["docs", "src", "--output-dir", "out", "--check"], in: tmp)
        XCTAssertEqual(fresh.status, 0, fresh.stdout + fresh.stderr)
        let before = try snapshot(tmp.appendingPathComponent("out"))
        let again = try run(["docs", "src", "--output-dir", "out"], in: tmp)
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("0 files written"), again.stderr)
        XCTAssertEqual(try snapshot(tmp.appendingPathComponent("out")), before)

        // A different Graphviz version or font in the SVG is not staleness; a changed fingerprint is.
        let valveSVG = tmp.appendingPathComponent("out/valve.svg")
        var svg = try String(contentsOf: valveSVG, encoding: .utf8)
        svg = svg.replacingOccurrences(of: "Generated by graphviz version", with: "Generated by graphviz version 99.0 was")
        try svg.write(to: valveSVG, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["docs", "src", "--output-dir", "out", "--check"], in: tmp).status, 0)

        // Stale: change a rule in the code; --check fails and names the files of that machine.
        let valve = src.appendingPathComponent("Valve.swift")
        let code = try String(contentsOf: valve, encoding: .utf8)
        try code.replacingOccurrences(of: "case (.closing, .closed):\n        return .closed", with: "case (.closing, .closed):\n        return .open")
            .write(to: valve, atomically: true, encoding: .utf8)
        let stale = try run(["docs", "src", "--output-dir", "out", "--check"], in: tmp)
        XCTAssertEqual(stale.status, 1, stale.stdout + stale.stderr)
        XCTAssertTrue(stale.stdout.contains("changed: valve.mmd"), stale.stdout)
        XCTAssertTrue(stale.stdout.contains("changed: valve.md"), stale.stdout)
        XCTAssertTrue(stale.stdout.contains("changed: valve.svg"), stale.stdout)
        XCTAssertFalse(stale.stdout.contains("lock."), stale.stdout)
        XCTAssertEqual(try snapshot(tmp.appendingPathComponent("out")).filter { !$0.key.hasSuffix(".svg") },
                       before.filter { !$0.key.hasSuffix(".svg") }, "--check must not write")

        // Missing and obsolete files are reported too.
        try FileManager.default.removeItem(at: tmp.appendingPathComponent("out/index.html"))
        try FileManager.default.removeItem(at: src.appendingPathComponent("Junction.swift"))
        let gone = try run(["docs", "src", "--output-dir", "out", "--check"], in: tmp)
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stdout.contains("missing: index.html"), gone.stdout)
        XCTAssertTrue(gone.stdout.contains("obsolete: Junction.light.mmd"), gone.stdout)

        // Regenerating brings it back in sync and removes the obsolete files.
        XCTAssertEqual(try run(["docs", "src", "--output-dir", "out"], in: tmp).status, 0)
        XCTAssertEqual(try run(["docs", "src", "--output-dir", "out", "--check"], in: tmp).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out/Junction.light.md").path))
    }

    func testRenderMermaidAndMarkdown() throws {
        let mermaid = try run(["render", "examples/Machines/DoorLock.swift", "--format", "mermaid"])
        XCTAssertEqual(mermaid.status, 0, mermaid.stderr)
        XCTAssertTrue(mermaid.stdout.contains("stateDiagram-v2\n"))
        XCTAssertTrue(mermaid.stdout.contains("[*] --> locked\n"))
        let markdown = try run(["render", "examples/Machines/DoorLock.swift", "--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.contains("| State \\ Input |"), markdown.stdout)
        XCTAssertEqual(markdown.stderr, "")
    }

    /// Opens index.html in headless Chromium and takes a screenshot; skipped when Chromium is absent.
    func testIndexRendersInHeadlessChromium() throws {
        guard let chromium = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(Self.which).first else {
            throw XCTSkip("Chromium is not installed (apt-get install chromium)")
        }
        let tmp = try temporaryFolder()
        _ = try sources(in: tmp)
        XCTAssertEqual(try run(["docs", "src", "--output-dir", "out"], in: tmp).status, 0)
        let png = tmp.appendingPathComponent("shot.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
                             "--user-data-dir=\(tmp.appendingPathComponent("profile").path)",
                             "--window-size=1200,1600", "--screenshot=\(png.path)",
                             tmp.appendingPathComponent("out/index.html").absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let data = try Data(contentsOf: png)
        XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        XCTAssertGreaterThan(data.count, 20_000, "the screenshot is suspiciously small (blank page?)")
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func snapshot(_ dir: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            result[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return result
    }
}
