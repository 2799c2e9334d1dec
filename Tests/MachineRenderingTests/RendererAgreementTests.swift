import Foundation
import MachineAnalysis
import MachineExtraction
import MachineModel
@testable import MachineRendering
import XCTest

/// DOT, Mermaid, Markdown and the JSON `noop` flag describe every edge alike: each says an edge
/// starts, sends or cancels something exactly when the others do, on every machine of examples/.
final class RendererAgreementTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func machines(_ paths: [String]) -> [Machine] {
        Extractor.extract(paths: paths).machines.map(Analyzer().analyze)
    }

    /// What a piece of text says an edge does: effect, sends, cancels.
    struct Says: Equatable, CustomStringConvertible {
        var effect: Bool
        var sends: Bool
        var cancels: Bool
        var description: String { "effect \(effect), sends \(sends), cancels \(cancels)" }
        init(_ text: String, effectMark: String) {
            effect = text.contains(effectMark)
            sends = text.contains("⇢ sends")
            cancels = text.contains("✕ cancels")
        }
    }

    func testRenderersAgreeEdgeByEdgeOnTheExamples() throws {
        let machines = Self.machines([Self.root.appendingPathComponent("examples").path])
        XCTAssertGreaterThan(machines.count, 15)
        let dot = DOTRenderer(options: .init(showNoops: true))
        let markdown = MarkdownRenderer()
        var compared = 0, silent = 0
        for m in machines {
            let rules = Dictionary(m.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: AnalysisDocument(machines: [m], diagnostics: []).jsonData()) as? [String: Any])
            let jsonEdges = try XCTUnwrap((json["machines"] as? [[String: Any]])?.first?["edges"] as? [[String: Any]])
            XCTAssertEqual(jsonEdges.count, m.edges.count)
            let mermaid = MermaidRenderer(options: .init(showNoops: true)).render(m)
            let dotText = dot.render(m)
            for (edge, jsonEdge) in zip(m.edges, jsonEdges) {
                let label = dot.label(edge, rules[edge.rule])
                let cell = markdown.cell(edge, rules[edge.rule])
                // " / " starts the effect in a DOT label, "/ " in a Markdown cell (after the target)
                let fromDOT = Says(label, effectMark: " / "), fromMarkdown = Says(cell, effectMark: "/ ")
                let place = "\(m.name): \(edge.from) -\(edge.input)-> \(edge.to)"
                XCTAssertEqual(fromDOT, fromMarkdown, "\(place)\nDOT: \(label)\nMarkdown: \(cell)")
                let noop = try XCTUnwrap(jsonEdge["noop"] as? Bool)
                XCTAssertEqual(noop, edge.noop)
                if noop {
                    XCTAssertEqual(fromDOT, Says("", effectMark: " / "), "\(place): JSON says noop, DOT says \(label)")
                    if edge.from == edge.to { XCTAssertEqual(cell, "·", place) }
                    silent += 1
                }
                // the very label DOT draws is in the DOT text and, escaped, in the Mermaid text
                XCTAssertTrue(dotText.contains(DOTRenderer.escape(label)), "\(place): \(label)")
                let mermaidLabel = label.split(separator: "\n").map { MermaidRenderer.text(String($0)) }.joined(separator: "<br/>")
                XCTAssertTrue(mermaid.contains(mermaidLabel), "\(place): \(mermaidLabel)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 200)
        XCTAssertGreaterThan(silent, 0, "some edges do nothing, so the noop side is exercised")
    }

    /// The case of issue 11: a `guard … else { return .none }` branch of a rule whose other branch
    /// runs an effect. The Markdown table showed the effect on both.
    func testABranchThatRunsNothingShowsNoEffectAnywhere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-agree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Kettle.swift")
        try """
        import ComposableArchitecture
        @Reducer struct Kettle {
            struct State { var heat: Heat = .cold; var full = true }
            enum Heat { case cold, boiling }
            enum Action { case boil, boiled, pour }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .boil:
                        guard state.full else { return .none }
                        state.heat = .boiling
                        return .run { send in await send(.boiled) }
                    case .boiled:
                        return .none
                    case .pour:
                        state.heat = .cold
                        return .none
                    }
                }
            }
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        let m = try XCTUnwrap(Self.machines([file.path]).first { $0.name == "Kettle.heat" })
        let rules = Dictionary(m.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let stay = try XCTUnwrap(m.edges.first { $0.from == "cold" && $0.input == "boil" && $0.to == "cold" }, "\(m.edges)")
        XCTAssertTrue(stay.noop)
        XCTAssertEqual(MarkdownRenderer().cell(stay, rules[stay.rule]), "·")
        let move = try XCTUnwrap(m.edges.first { $0.from == "cold" && $0.input == "boil" && $0.to == "boiling" })
        XCTAssertTrue(MarkdownRenderer().cell(move, rules[move.rule]).contains("⇢ sends boiled"))
        let table = MarkdownRenderer().render(m)
        let coldRow = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix("| **cold**") })
        XCTAssertEqual(coldRow.components(separatedBy: "⇢ sends").count, 2, "one effect in the row, not two: \(coldRow)")
    }
}
