import Foundation
import XCTest

/// Issue 11's "docs that say otherwise than the tool": every relative link of the README and docs/
/// leads to a file that exists, every `docs/….md` a --help text cites exists (case and all), the exit
/// status docs/ci.md gives for a misspelt option is the real one, and counts agree in number.
/// (docs/example/ being current is DocsCommandTests.testTheCommittedExampleDocsAreCurrent.)
final class DocsSayWhatTheToolDoesTests: XCTestCase {
    static let root = CLIEndToEndTests.root

    func markdownFiles() throws -> [URL] {
        let docs = try FileManager.default.contentsOfDirectory(at: Self.root.appendingPathComponent("docs"), includingPropertiesForKeys: nil)
        return [Self.root.appendingPathComponent("README.md"), Self.root.appendingPathComponent("CHANGELOG.md")]
            + docs.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
    }

    func testRelativeLinksOfTheReadmeAndDocsExist() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        for file in try markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                var target = String(text[Range(match.range(at: 1), in: text)!])
                if target.hasPrefix("http") || target.hasPrefix("#") || target.hasPrefix("mailto:") { continue }
                if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
                let url = file.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(file.lastPathComponent) links to \(target), which does not exist")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    func testHelpTextsCiteDocsThatExist() throws {
        let cited = try NSRegularExpression(pattern: #"docs/[A-Za-z0-9_./-]+\.md"#)
        var checked = 0
        for sub in ["analyze", "render", "lint", "list", "paths", "docs"] {
            let r = try CLIEndToEndTests.run([sub, "--help"])
            XCTAssertEqual(r.status, 0, sub)
            for match in cited.matches(in: r.stdout, range: NSRange(r.stdout.startIndex..., in: r.stdout)) {
                let path = String(r.stdout[Range(match.range, in: r.stdout)!])
                XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(sub) --help cites \(path)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0, "the help texts cite the docs")
    }

    func testAMisspeltOptionExitsWithTheDocumentedStatus() throws {
        let r = try CLIEndToEndTests.run(["lint", "--reportr", "json", "examples/harvest/Login.swift"])
        XCTAssertEqual(r.status, 2, r.stderr)
        let ci = try String(contentsOf: Self.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let row = try XCTUnwrap(ci.split(separator: "\n").first { $0.contains("a misspelt option") }, "docs/ci.md says what a misspelt option does")
        XCTAssertTrue(row.hasPrefix("| 2 |"), String(row))
        XCTAssertFalse(ci.contains("64"), "no sysexits status in docs/ci.md")
    }

    func testCountsAgreeInNumber() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-counts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            enum Hatch { case shut, open }
            enum HatchInput { case lift }
            func step(_ h: Hatch, _ i: HatchInput) -> Hatch? {
                switch (h, i) {
                case (.shut, .lift): return .open
                default: return nil
                }
            }
            """.write(to: dir.appendingPathComponent("Hatch.swift"), atomically: true, encoding: .utf8)
        let r = try CLIEndToEndTests.run(["list", dir.appendingPathComponent("Hatch.swift").path, "examples"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("2 states, 1 input, 2 rules\t"), r.stdout)
        // every count in the listing agrees with its noun: `1 rule`, `2 rules`, never `1 rules`
        let count = try NSRegularExpression(pattern: #"\b(\d+) (state|input|rule|finding)(s?)\b"#)
        var singular = 0
        for m in count.matches(in: r.stdout, range: NSRange(r.stdout.startIndex..., in: r.stdout)) {
            let n = Int(r.stdout[Range(m.range(at: 1), in: r.stdout)!])!, plural = m.range(at: 3).length > 0
            XCTAssertEqual(plural, n != 1, String(r.stdout[Range(m.range, in: r.stdout)!]))
            if n == 1 { singular += 1 }
        }
        XCTAssertGreaterThan(singular, 0)
    }
}
