import Foundation
import MachineModel
import XCTest

final class ModelTests: XCTestCase {
    func rule(_ id: Int, line: Int, _ outcomes: [Outcome]) -> Rule {
        Rule(id: id, location: SourceLocation(file: "M.swift", line: line, column: 5), outcomes: outcomes)
    }

    func testRuleProjectionsComeFromItsBranches() {
        let r = rule(1, line: 3, [
            Outcome(pairs: [Pair(from: "a", input: "go"), Pair(from: "b", input: "go")], target: .state("c"),
                    effect: Effect(label: "run", emits: ["done"]), cancels: ["timer"], guardText: "ok"),
            Outcome(pairs: [Pair(from: "a", input: "go")], target: .state("d"), effect: Effect(label: "log", emits: ["done", "x"]),
                    guardText: "!(ok)"),
            Outcome(pairs: [Pair(from: "b", input: "stop")], target: .stay),
        ])
        XCTAssertEqual(r.inputs, ["go", "stop"])
        XCTAssertEqual(r.from, ["a", "b"])
        XCTAssertEqual(r.targets, ["c", "d"])
        XCTAssertEqual(r.effect, Effect(label: "run + log", emits: ["done", "x"],
                                        parts: [Effect(label: "run", emits: ["done"]), Effect(label: "log", emits: ["done", "x"])]))
        XCTAssertEqual(r.cancels, ["timer"])
        XCTAssertNil(r.displayGuard, "branch guards differ: none is the rule's")
        let edge = Edge(from: "a", input: "go", to: "d", rule: 1, noop: false)
        XCTAssertEqual(r.outcomes(for: edge).map(\.guardText), ["!(ok)"])
    }

    func testJSONDocumentHasTheContractKeysSortedAndIsByteStable() throws {
        var m = Machine(name: "door", dialect: .operatorTable, location: SourceLocation(file: "D.swift", line: 1, column: 1),
                        states: ["closed", "open"], inputs: ["push"], initial: "closed",
                        rules: [rule(1, line: 2, [Outcome(pairs: [Pair(from: "closed", input: "push")], target: .state("open"))])],
                        order: .firstMatch)
        m.edges = [Edge(from: "closed", input: "push", to: "open", rule: 1, noop: false)]
        let doc = AnalysisDocument(machines: [m], diagnostics: [Diagnostic(severity: .warning, message: "w", location: nil)])
        let data = try doc.jsonData()
        XCTAssertEqual(data, try doc.jsonData())
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["schemaVersion"] as? Int, 2)
        let machine = try XCTUnwrap((object["machines"] as? [[String: Any]])?.first)
        for key in ["name", "id", "dialect", "location", "states", "inputs", "internalInputs", "initial", "rules", "edges", "findings"] {
            XCTAssertNotNil(machine[key], key)
        }
        let edgeObject = try XCTUnwrap((machine["edges"] as? [[String: Any]])?.first)
        XCTAssertEqual(edgeObject["trigger"] as? String, "push", "a plain case is its own trigger")
        let ruleObject = try XCTUnwrap((machine["rules"] as? [[String: Any]])?.first)
        for key in ["id", "location", "inputs", "from", "targets", "guard", "effect", "cancels"] {
            XCTAssertTrue(ruleObject.keys.contains(key), key)
        }
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertLessThan(try XCTUnwrap(text.range(of: "\"diagnostics\"")).lowerBound, try XCTUnwrap(text.range(of: "\"machines\"")).lowerBound,
                          "keys are sorted")
        XCTAssertTrue(text.hasSuffix("}\n"))
        // and it reads back
        let back = try JSONDecoder().decode(AnalysisDocument.self, from: data)
        XCTAssertEqual(back.machines[0].edges, m.edges)
        XCTAssertEqual(back.machines[0].rules[0].targets, ["open"])
    }

    /// The decoder once rebuilt a rule from `from`/`inputs`/`targets` only and lost its `patterns` and
    /// `dataDependent` (found by the fuzz target): every key a rule writes reads back.
    func testARuleReadsBackWithPatternsDataDependentTargetsAndItsEffect() throws {
        let pairs = [Pair(from: "idle", input: "panel"), Pair(from: "busy", input: "reply")]
        let r = Rule(id: 4, location: SourceLocation(file: "K.swift", line: 9, column: 3), outcomes: [
            Outcome(pairs: pairs, target: .state("busy"), effect: Effect(label: "run", emits: ["reply", "reply"], id: "heat", kind: .stream),
                    pattern: .member("panel", [.init(.member("openTapped"))])),
            Outcome(pairs: pairs, target: .unknown("next(state)"), pattern: .member("reply", [.init(.member("failure", [.init(.any)]))])),
            Outcome(pairs: pairs, target: .unknown("next(state)"), cancels: ["heat"]),
            Outcome(pairs: pairs, target: .stay, pattern: .member("send", [.init(label: "ok", .literal("true")), .init(.literal("\"a,(b\""))])),
        ], guardText: "ready", implicit: true, trigger: "tick")
        let json = try StableJSON.data(r)
        let text = String(decoding: json, as: UTF8.self)
        XCTAssertTrue(text.contains("\"dataDependent\" : [\n    \"next(state)\",\n    \"next(state)\"\n  ]"), text)
        XCTAssertTrue(text.contains("\"panel(.openTapped)\""), text)
        let back = try JSONDecoder().decode(Rule.self, from: json)
        XCTAssertEqual(try StableJSON.data(back), json)
        XCTAssertEqual(back.outcomes.compactMap(\.pattern).map(\.trigger), ["panel(.openTapped)", "reply(.failure)", #"send(ok:true,"a,(b")"#])
        XCTAssertEqual(back.effect?.emits, ["reply", "reply"], "the effect is not merged with itself")
    }

    func testATriggerTextReadsBackAsItsPattern() {
        let patterns: [InputPattern] = [
            .member("reset"),
            .member("view", [.init(.member("saveTapped"))]),
            .member("response", [.init(.member("success"))]),
            .member("forecast", [.init(.any), .init(.member("failure"))]),
            .member("send", [.init(label: "didSucceed", .literal("true"))]),
            .member("alert", [.init(.member("presented", [.init(.member("confirm", [.init(label: "id", .literal("-3"))]))]))]),
            .member("pick", [.init(.literal("\\.isComplete")), .init(.literal("nil"))]),
        ]
        for p in patterns {
            XCTAssertEqual(InputPattern(trigger: p.trigger), p, p.trigger)
        }
        // trailing wildcards are not in the text: the pattern read back matches the same values
        let success = InputPattern.member("response", [.init(.member("success", [.init(.any)]))])
        XCTAssertEqual(InputPattern(trigger: success.trigger).matches(success), true)
        // a literal argument with commas and parentheses of its own still gives the same text back
        for text in [#"say("a,b")"#, "move(f(1,2),.left)", #"tag(x:"\")",.on)"#] {
            XCTAssertEqual(InputPattern(trigger: text).trigger, text)
            XCTAssertTrue(InputPattern(trigger: text).narrows, text)
        }
    }

    func testSeverityOrder() {
        XCTAssertLessThan(Severity.note, .warning)
        XCTAssertLessThan(Severity.warning, .error)
        XCTAssertEqual([Severity.error, .note, .warning].max(), .error)
    }
}
