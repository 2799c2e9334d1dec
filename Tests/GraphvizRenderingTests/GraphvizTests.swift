import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GraphvizRendering
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

    func testSVGIsDeterministic() throws {
        let dot = DOTRenderer().render(hostileMachine())
        XCTAssertEqual(try Graphviz.render(dot: dot, format: .svg), try Graphviz.render(dot: dot, format: .svg))
    }
}
