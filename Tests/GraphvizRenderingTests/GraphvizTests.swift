import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import GraphvizRendering
import MachineAnalysis
import MachineModel
import MachineRendering
import XCTest

final class GraphvizTests: XCTestCase {
    /// A machine whose names need escaping in DOT and XML.
    func hostileMachine() -> Machine {
        let states = ["idle", "say \"hi\"", "back\\slash", "graph", "1st", "état <b>&</b>"]
        var rules: [Rule] = []
        for (i, s) in states.enumerated() {
            rules.append(Rule(id: i + 1, location: SourceLocation(file: "H.swift", line: i + 2, column: 1),
                              outcomes: [Outcome(pairs: [Pair(from: s, input: "next \"one\"")], target: .state(states[(i + 1) % states.count]),
                                                 effect: Effect(label: "log(\"x\")", emits: ["a&b"]), cancels: ["<id>"])]))
        }
        return Analyzer().analyze(Machine(name: "weird \"machine\"", dialect: .switchMethod, location: SourceLocation(file: "H.swift", line: 1, column: 1),
                                          states: states, inputs: ["next \"one\""], initial: "idle", rules: rules, order: .resolved))
    }

    /// Node groups in the SVG and the text drawn in each, read with an XML parser.
    final class NodeTitles: NSObject, XMLParserDelegate {
        var inNode = false, inText = false
        var nodes = 0
        var texts: [String] = []
        var current = ""
        func parser(_ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            if name == "g" {
                inNode = attributes["class"] == "node"
                if inNode { nodes += 1 }
            }
            if name == "text" && inNode { inText = true; current = "" }
        }
        func parser(_ p: XMLParser, foundCharacters string: String) { if inText { current += string } }
        func parser(_ p: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" && inText { texts.append(current); inText = false }
        }
    }

    func testSVGIsXMLWithOneNodePerState() throws {
        let m = hostileMachine()
        let svg = try Graphviz.render(dot: DOTRenderer(options: .init(legend: false)).render(m), format: .svg)
        let parser = XMLParser(data: svg)
        let titles = NodeTitles()
        parser.delegate = titles
        XCTAssertTrue(parser.parse(), "SVG must be well-formed XML: \(String(describing: parser.parserError))")
        XCTAssertEqual(titles.nodes, m.states.count + 1, "one node per state and the start point")
        XCTAssertEqual(Set(titles.texts), Set(m.states), "each state's name drawn exactly, escapes undone")
    }

    func testPNGAndPDFThroughCairo() throws {
        let dot = DOTRenderer().render(hostileMachine())
        let png = try Graphviz.render(dot: dot, format: .png)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let pdf = try Graphviz.render(dot: dot, format: .pdf)
        XCTAssertEqual(String(decoding: pdf.prefix(5), as: UTF8.self), "%PDF-")
    }

    func testGraphvizErrorsBecomeSwiftErrors() {
        XCTAssertThrowsError(try Graphviz.render(dot: "digraph { a -> ", format: .svg)) { error in
            let message = (error as? Graphviz.RenderError)?.message ?? ""
            XCTAssertTrue(message.contains("could not read the DOT text"), message)
            XCTAssertTrue(message.lowercased().contains("syntax error"), message)
        }
        // and the library is usable afterwards
        XCTAssertNoThrow(try Graphviz.render(dot: "digraph { a -> b }", format: .svg))
    }

    /// Every rendering of the process goes through one libgvc context (a context per rendering leaked
    /// 3.6 KB each: libgvc 2.42 does not free its plugin configuration text), and what one rendering
    /// leaves in it changes no other: the same text draws the same bytes after other graphs, other
    /// formats, an engine chosen by the text and a DOT error.
    func testOneLibgvcContextServesEveryRendering() throws {
        let dot = DOTRenderer().render(hostileMachine())
        let first = try Graphviz.render(dot: dot, format: .svg)
        _ = try Graphviz.render(dot: "digraph { layout=\"neato\"; x -> y -> z -> x }", format: .svg)
        if Graphviz.supports(.png) { _ = try Graphviz.render(dot: "digraph { a -> b }", format: .png) }
        XCTAssertThrowsError(try Graphviz.render(dot: "digraph { a -> ", format: .svg))
        XCTAssertEqual(try Graphviz.render(dot: dot, format: .svg), first)
        XCTAssertEqual(Graphviz.contextsMade, 1)
    }

    func testSVGIsDeterministic() throws {
        let dot = DOTRenderer().render(hostileMachine())
        XCTAssertEqual(try Graphviz.render(dot: dot, format: .svg), try Graphviz.render(dot: dot, format: .svg))
    }

    /// With a time budget, `dot` runs in a child process; within the budget its output is used and says so.
    func testBudgetedLayoutSaysWhichEngineItUsed() throws {
        let dot = DOTRenderer().render(hostileMachine())
        let r = try Graphviz.layout(dot: dot, format: .svg, budget: 60)
        XCTAssertEqual(r.engine, "dot")
        XCTAssertNil(r.fallbackNote)
        XCTAssertTrue(String(decoding: r.data, as: UTF8.self).contains("<!-- layout: dot -->"))
        // errors still come back as errors
        XCTAssertThrowsError(try Graphviz.layout(dot: "digraph { a -> ", format: .svg, budget: 60))
    }

    /// A budget `dot` cannot meet (none at all): the layout is stopped and sfdp draws every state instead.
    func testLayoutOverBudgetFallsBackToSfdp() throws {
        let states = (0..<40).map { "s\($0)" }
        var rules: [Rule] = []
        for (i, s) in states.enumerated() {
            for k in 1...3 {
                rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "B.swift", line: rules.count + 2, column: 1),
                                  outcomes: [Outcome(pairs: [Pair(from: s, input: "e\(k)")], target: .state(states[(i * 7 + k * 13) % 40]))]))
            }
        }
        let m = Analyzer().analyze(Machine(name: "big", dialect: .switchMethod, location: SourceLocation(file: "B.swift", line: 1, column: 1),
                                           states: states, inputs: ["e1", "e2", "e3"], initial: "s0", rules: rules, order: .resolved))
        let r = try Graphviz.layout(dot: DOTRenderer().render(m), format: .svg, budget: 0)
        XCTAssertEqual(r.engine, "sfdp")
        XCTAssertTrue(r.fallbackNote?.contains("laid out with sfdp") ?? false)
        let svg = String(decoding: r.data, as: UTF8.self)
        XCTAssertTrue(svg.contains("<!-- layout: sfdp (dot did not finish"), String(svg.prefix(400)))
        let titles = NodeTitles()
        let parser = XMLParser(data: r.data)
        parser.delegate = titles
        XCTAssertTrue(parser.parse())
        XCTAssertGreaterThanOrEqual(titles.nodes, 40)
        // and libgvc still works in this process afterwards
        XCTAssertNoThrow(try Graphviz.render(dot: "digraph { a -> b }", format: .svg))
    }
}
