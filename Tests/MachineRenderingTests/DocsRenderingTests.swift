import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MachineAnalysis
import MachineModel
@testable import MachineRendering
import XCTest

/// Tiny inline machines, analysed, then rendered as Mermaid and Markdown and compared with golden files.
enum Samples {
    static func at(_ line: Int) -> SourceLocation { SourceLocation(file: "Samples/Lock.swift", line: line, column: 5) }

    static func rule(_ id: Int, _ from: [String], _ inputs: [String], _ target: Target, effect: Effect? = nil,
                     cancels: [String] = [], guardText: String? = nil, implicit: Bool = false) -> Rule {
        let pairs = from.flatMap { s in inputs.map { Pair(from: s, input: $0) } }
        return Rule(id: id, location: at(10 + id), outcomes: [Outcome(pairs: pairs, target: target, effect: effect, cancels: cancels)],
                    guardText: guardText, implicit: implicit)
    }

    /// A lock with an effect on a `latest` queue, a sent-back input, a guard, a cancellation, an
    /// unreachable state, a dead end, a terminal state and a no-op self-loop.
    static var lock: Machine {
        let motor = Effect(label: "unlockMotor", emits: ["unlockDone"], queue: "motor", policy: "latest")
        let m = Machine(
            name: "lockMappings", dialect: .operatorTable, location: at(1),
            states: ["locked", "unlocking", "unlocked", "jammed", "servicing", "retired"],
            inputs: ["unlock", "unlockDone", "lock", "service", "retire", "ping"],
            initial: "locked",
            rules: [
                rule(1, ["locked"], ["unlock"], .state("unlocking"), effect: motor),
                rule(2, ["unlocking"], ["unlockDone"], .state("unlocked")),
                rule(3, ["unlocking", "unlocked"], ["lock"], .state("locked"), cancels: ["motor"], guardText: "battery > 10"),
                rule(4, ["locked"], ["service"], .state("servicing")),
                rule(5, ["unlocked"], ["retire"], .state("retired")),
                rule(6, ["locked"], ["ping"], .stay),
                rule(7, ["unlocked"], ["ping"], .stay, effect: Effect(label: "beep")),
            ],
            order: .firstMatch, terminal: ["retired"])
        return Analyzer().analyze(m)
    }

    /// Names that are Mermaid keywords or contain every character that means something in Mermaid,
    /// Markdown or HTML.
    static var hostile: Machine {
        let states = ["end", "state", "note", "Class", "a:b", "x;y", "\"q\"", "#1", "<b>&\"x\"</b>", "café",
                      "with space", "pipe|bar", "back`tick", "mvz_1", "ok_2"]
        let m = Machine(
            name: "<b>&\"x\"</b>", dialect: .switchMethod, location: at(1),
            states: states,
            inputs: ["go", "a|b", "%%{init}%%", "*star*"],
            initial: "end",
            rules: [
                rule(1, ["end"], ["go"], .state("state"), guardText: "x == \"a;b\" && y < 2 # %% end"),
                rule(2, ["state"], ["a|b"], .state("note"), effect: Effect(label: "send(\"<script>\")", emits: ["go"])),
                rule(3, ["note"], ["%%{init}%%"], .state("a:b")),
                rule(4, ["a:b"], ["go"], .state("x;y")),
                rule(5, ["x;y"], ["go"], .state("\"q\"")),
                rule(6, ["\"q\""], ["go"], .state("#1")),
                rule(7, ["#1"], ["go"], .state("<b>&\"x\"</b>")),
                rule(8, ["<b>&\"x\"</b>"], ["go"], .state("café")),
                rule(9, ["café"], ["*star*"], .state("with space")),
                rule(10, ["with space"], ["go"], .state("pipe|bar"), cancels: ["id|1", "`t`"]),
                rule(11, ["pipe|bar"], ["go"], .state("back`tick")),
                rule(12, ["back`tick"], ["go"], .state("mvz_1")),
                rule(13, ["mvz_1"], ["go"], .state("ok_2")),
                rule(14, ["ok_2"], ["go"], .state("end")),
            ],
            order: .resolved)
        return Analyzer().analyze(m)
    }

    /// Two rules with different targets for one pair in an all-match dialect, and a target chosen by data.
    static var overlap: Machine {
        var branchy = Rule(id: 3, location: at(13), outcomes: [
            Outcome(pairs: [Pair(from: "armed", input: "fire")], target: .state("idle"), guardText: "ammo == 0"),
            Outcome(pairs: [Pair(from: "armed", input: "fire")], target: .state("firing"), guardText: "ammo > 0"),
        ])
        branchy.id = 3
        let m = Machine(
            name: "phases", dialect: .swiftstate, location: at(1),
            states: ["idle", "armed", "firing"], inputs: ["arm", "fire", "reset"], initial: "idle",
            rules: [
                rule(1, ["idle"], ["arm"], .state("armed")),
                rule(2, ["idle"], ["arm"], .state("firing"), implicit: true),
                branchy,
                rule(4, ["firing"], ["reset"], .state("idle")),
            ],
            order: .allMatch)
        return Analyzer().analyze(m)
    }
}

final class MermaidRendererTests: XCTestCase {
    func testLockGolden() {
        Golden.assert(MermaidRenderer().render(Samples.lock), named: "lock.mmd")
    }

    func testHostileGolden() {
        Golden.assert(MermaidRenderer().render(Samples.hostile), named: "hostile.mmd")
    }

    /// `scale` starts a statement in Mermaid's state diagrams (`scale 350 width`): a state of that name
    /// gets a generated id, as the other keywords do.
    func testScaleIsAKeyword() {
        XCTAssertFalse(MermaidRenderer.isPlain("scale"))
        XCTAssertFalse(MermaidRenderer.isPlain("Scale"))
        XCTAssertTrue(MermaidRenderer.isPlain("scaled"))
    }

    func testOverlapGolden() {
        Golden.assert(MermaidRenderer().render(Samples.overlap), named: "overlap.mmd")
    }

    /// Every line is one statement of the small grammar the renderer writes, so no name can end a
    /// statement, open a comment or directive, or smuggle in HTML.
    func testHostileNamesCannotBreakTheGrammar() throws {
        let text = MermaidRenderer().render(Samples.hostile)
        let id = "([A-Za-z][A-Za-z0-9_]*)"
        let safeText = "[^;%\"<>&:#\\n]*(#[0-9]+;[^;%\"<>&:#\\n]*)*"
        let patterns = try [
            "^%% .*$",
            "^stateDiagram-v2$",
            "^  direction LR$",
            "^  state \"\(safeText)\" as \(id)$",
            "^  \\[\\*\\] --> \(id)$",
            "^  \(id) --> \(id) : (\(safeText)|<br/>)*$",
            "^  note right of \(id) : \(safeText)$",
            "^  classDef [A-Za-z]+ [-a-z0-9:#,. ]+$",
            "^  class \(id)(,\(id))* [A-Za-z]+$",
        ].map { try NSRegularExpression(pattern: $0) }
        for line in text.split(separator: "\n").map(String.init) {
            let range = NSRange(line.startIndex..., in: line)
            XCTAssertTrue(patterns.contains { $0.firstMatch(in: line, range: range) != nil }, "unexpected line: \(line)")
        }
        // Keywords and odd names get generated ids; plain ones stay readable.
        XCTAssertTrue(text.contains("state \"end\" as mvz_1\n"))
        XCTAssertTrue(text.contains("state \"ok#95;2\" as ok_2\n"))
        XCTAssertFalse(text.contains(" as mvz_1\n  state \"mvz_1\" as mvz_1"), "a plain name must not collide with a generated id")
        XCTAssertFalse(text.contains("<b>"))
        XCTAssertEqual(text.components(separatedBy: "%%").count, 2, "only the comment line may contain %%")
    }

    func testEscapingDecodesBack() {
        // Mermaid turns `#NNN;` back into the character: the round trip must give the original text.
        for s in ["a:b;c#d", "<b>&\"x\"</b>", "%%{init}%%", "100% [x] {y} |z| `q` \\"] {
            let escaped = MermaidRenderer.text(s)
            let regex = try! NSRegularExpression(pattern: "#([0-9]+);")
            var decoded = escaped
            for match in regex.matches(in: escaped, range: NSRange(escaped.startIndex..., in: escaped)).reversed() {
                let r = Range(match.range, in: escaped)!, n = Range(match.range(at: 1), in: escaped)!
                decoded.replaceSubrange(r, with: String(UnicodeScalar(UInt32(escaped[n])!)!))
            }
            XCTAssertEqual(decoded, s)
        }
    }

    func testSizeWarningAtGitHubLimits() {
        var states: [String] = []
        var rules: [Rule] = []
        for i in 0..<260 {
            states.append("s\(i)")
            rules.append(Samples.rule(2 * i + 1, ["s\(i)"], ["next"], .state("s\((i + 1) % 260)")))
            rules.append(Samples.rule(2 * i + 2, ["s\(i)"], ["back"], .state("s\((i + 259) % 260)")))
        }
        let big = Analyzer().analyze(Machine(name: "big", dialect: .switchMethod, location: Samples.at(1), states: states,
                                              inputs: ["next", "back"], initial: "s0", rules: rules, order: .resolved))
        let text = MermaidRenderer().render(big)
        XCTAssertEqual(MermaidRenderer.size(of: text).edges, 521)
        XCTAssertNotNil(MermaidRenderer.sizeWarning(for: text))
        XCTAssertNil(MermaidRenderer.sizeWarning(for: MermaidRenderer().render(Samples.lock)))
        XCTAssertNotNil(MermaidRenderer.sizeWarning(for: String(repeating: "x", count: 50_001)))
    }

    func testRenderTwiceIsIdentical() {
        XCTAssertEqual(MermaidRenderer().render(Samples.hostile), MermaidRenderer().render(Samples.hostile))
        XCTAssertEqual(MarkdownRenderer().page(Samples.lock), MarkdownRenderer().page(Samples.lock))
    }
}

final class MarkdownRendererTests: XCTestCase {
    func testLockTableGolden() {
        Golden.assert(MarkdownRenderer().render(Samples.lock), named: "lock.table.md")
    }

    func testLockPageGolden() {
        let page = MarkdownRenderer.Page(image: "lockMappings.svg", mermaidFile: "lockMappings.mmd")
        Golden.assert(MarkdownRenderer().page(Samples.lock, page), named: "lock.page.md")
    }

    func testHostileTableGolden() {
        Golden.assert(MarkdownRenderer().render(Samples.hostile), named: "hostile.table.md")
    }

    func testOverlapPageGolden() {
        Golden.assert(MarkdownRenderer().page(Samples.overlap, .init(mermaid: MermaidRenderer().render(Samples.overlap))),
                      named: "overlap.page.md")
    }

    /// Every table row has exactly as many unescaped `|` as the header: no name can add a column.
    func testHostileNamesKeepTheTableShape() {
        let lines = MarkdownRenderer().render(Samples.hostile).split(separator: "\n").filter { $0.hasPrefix("|") }
        func pipes(_ s: Substring) -> Int {
            var count = 0, escaped = false
            for ch in s {
                if escaped { escaped = false; continue }
                if ch == "\\" { escaped = true } else if ch == "|" { count += 1 }
            }
            return count
        }
        let expected = pipes(lines[0])
        XCTAssertEqual(expected, Samples.hostile.inputs.count + 2)
        for line in lines { XCTAssertEqual(pipes(line), expected, "row has a different shape: \(line)") }
        XCTAssertFalse(lines.joined().contains("<b>"))
        XCTAssertFalse(lines.joined().contains("<script"))
    }

    func testEscape() {
        XCTAssertEqual(MarkdownRenderer.escape("a|b `c` <d> & *e* _f_"), "a\\|b \\`c\\` &lt;d&gt; &amp; \\*e\\* \\_f\\_")
        XCTAssertEqual(MarkdownRenderer.linkTarget("a b(1).svg"), "a%20b%281%29.svg")
    }
}

final class HTMLIndexRendererTests: XCTestCase {
    func testEscapesNamesAndIsWellFormed() throws {
        let entries = [Samples.hostile, Samples.lock].enumerated().map { i, m in
            HTMLIndexRenderer.Entry(machine: m, stem: "m\(i)", svgFile: "m\(i).svg", markdownFile: "m\(i).md", mermaidFile: "m\(i).mmd")
        }
        let html = HTMLIndexRenderer(title: "Docs <&>").render(entries, diagnostics: [
            Diagnostic(severity: .warning, message: "odd <input> & \"stuff\"", location: nil),
        ])
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertTrue(html.contains("<h2>&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;</h2>"))
        XCTAssertTrue(html.contains("<title>Docs &lt;&amp;&gt;</title>"))
        // Well-formed XML (XHTML): every element closed, every entity valid.
        let document = try XMLDocument(data: Data(html.utf8), options: [])
        let headings = try document.nodes(forXPath: "//*[local-name()='h2']").map { $0.stringValue ?? "" }
        XCTAssertEqual(headings.prefix(2), ["<b>&\"x\"</b>", "lockMappings"])
        XCTAssertFalse(html.contains("http://") && !html.contains("xmlns=\"http://www.w3.org/1999/xhtml\""))
        XCTAssertFalse(html.contains("<script"))
    }
}
