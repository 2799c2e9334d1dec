import Foundation
@testable import MachineExtraction
import MachineModel
import XCTest

/// Hostile or unusual input that used to cost whole files or machines: deep nesting, invalid UTF-8,
/// backticked names, a ternary on the state's own value, paths that hold no Swift.
final class InputIsNeverLostTests: XCTestCase {
    static let lamp = """
    enum Glow { case dim, bright, dark }
    enum Knob { case up, down, cut }
    final class Sconce {
        var glow: Glow = .dim
        func turn(_ k: Knob) {
            switch (glow, k) {
            case (.dim, .up): glow = .bright
            case (.bright, .down): glow = .dim
            case (_, .cut): glow = .dark
            default: break
            }
        }
    }

    """

    func testDeepLiteralIsBlankedAndTheMachineBesideItIsFound() throws {
        let depth = 40
        let deep = "let lattice = " + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        // the deep literal spans two lines, before the machine: every line after it must stay right
        let source = "let shallow = [[1], [2]]\n" + deep.replacingOccurrences(of: "1]", with: "1\n]") + "\n" + Self.lamp
        let started = Date()
        let a = Analysed.source(source)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "bounded time")
        let m = try a.machine("Sconce.glow")
        XCTAssertEqual(m.moves, ["dim -up-> bright", "bright -down-> dim", "dim -cut-> dark", "bright -cut-> dark"])
        XCTAssertEqual(m.location.line, 3 + 5, "positions after the blanked region are the original ones")
        let warning = try XCTUnwrap(a.diagnostics.first { $0.message.contains("square brackets nest") }, "\(a.diagnosticLines)")
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 2)
        XCTAssertTrue(warning.message.contains("lines 2-3"), warning.message)
        XCTAssertTrue(warning.message.contains("nest \(depth) deep"), warning.message)
    }

    func testTooDeepRegionsKeepBracketsLineBreaksAndSkipStrings() {
        let limit = SourceSet.maximumBracketDepth
        let open = String(repeating: "[", count: limit + 2), close = String(repeating: "]", count: limit + 2)
        let text = "let s = \"\(open)\" // \(open)\nlet x = \(open)a,\nb\(close)\n"
        let data = Data(text.utf8)
        let regions = SourceSet.tooDeepRegions(data, limit: limit)
        XCTAssertEqual(regions.count, 1, "brackets in strings and comments do not count")
        let blanked = String(decoding: SourceSet.blank(data, regions), as: UTF8.self)
        XCTAssertEqual(blanked.count, text.count)
        XCTAssertEqual(blanked.split(separator: "\n", omittingEmptySubsequences: false).count, 4, "line breaks kept")
        let lines = blanked.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines[1], Substring("let x = " + String(repeating: "[", count: limit) + "    "))
        XCTAssertEqual(lines[2], Substring("   " + String(repeating: "]", count: limit)))
        XCTAssertEqual(SourceSet.tooDeepRegions(Data("let ok = \(String(repeating: "[", count: limit))1\(String(repeating: "]", count: limit))".utf8), limit: limit), [])
    }

    /// An interpolation in a string literal is code: brackets in it count (the fuzzer found a file whose
    /// 40 brackets inside `"\\( … )"` made the parser's lookahead run for minutes), while brackets in
    /// the string's text, after escaped quotes and backslashes, in raw and multi-line strings do not.
    func testBracketsInAnInterpolationCountAndTheStringsTextDoesNot() {
        let limit = SourceSet.maximumBracketDepth
        let deep = String(repeating: "[", count: limit + 30), shut = String(repeating: "]", count: limit + 30)
        let text = #"let a = "x \" \\ [[[[[[[[[[[[[[[[[[ \(f(g(1)) + h[\#(deep)T\#(shut)]) y"; let b = 1"# + "\n"
            + "let r = #\"raw \(deep)\"#\n"
            + "let m = \"\"\"\n\(deep)\n\"\"\"\n"
        let data = Data(text.utf8)
        let regions = SourceSet.tooDeepRegions(data, limit: limit)
        XCTAssertEqual(regions.count, 1, "only the interpolation's brackets count: \(regions)")
        let blanked = String(decoding: SourceSet.blank(data, regions), as: UTF8.self)
        XCTAssertTrue(blanked.hasPrefix(#"let a = "x \" \\ [[[[[[[[[[[[[[[[[[ \(f(g(1)) + h"#), blanked)
        XCTAssertTrue(blanked.contains(#") y"; let b = 1"#), blanked)
        XCTAssertEqual(blanked.count, text.count)
        // brackets left open in an interpolation end with it, not at the end of the file
        let unclosed = Data((#"let s = "at \#(deep)x)" + f[1]"# + "\nlet t = [[1]]\n").utf8)
        let kept = String(decoding: SourceSet.blank(unclosed, SourceSet.tooDeepRegions(unclosed, limit: limit)), as: UTF8.self)
        XCTAssertTrue(kept.hasSuffix(#")" + f[1]"# + "\nlet t = [[1]]\n"), kept)
    }

    func testInvalidUTF8IsReadWithReplacementAndAWarning() throws {
        var bytes = Data("// caf".utf8)
        bytes.append(0xE9)   // Latin-1 é: not UTF-8
        bytes.append(contentsOf: Data("\n".utf8))
        bytes.append(contentsOf: Data(Self.lamp.utf8))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-utf8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Latin.swift")
        try bytes.write(to: file)
        let a = Analysed(paths: [file.path])
        let m = try a.machine("Sconce.glow")
        XCTAssertEqual(m.location.line, 1 + 5)
        XCTAssertEqual(m.moves.count, 4)
        let warning = try XCTUnwrap(a.diagnostics.first { $0.message.contains("not valid UTF-8") }, "\(a.diagnosticLines)")
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 1)
    }

    /// Junk between a space and an `=` (`state \u{1}= .on`, or an invalid byte read as U+FFFD) made
    /// swift-syntax's diagnostics generator trap on a Fix-It with no change, and the whole tool crashed
    /// (found by the fuzz target). Now it is a syntax error with its line, and the rest is read.
    func testJunkBeforeAnEqualsSignIsASyntaxErrorNotACrash() throws {
        for junk in ["\u{1}", "\u{FFFD}\u{FFFD}", "\u{7F}"] {
            let a = Analysed.source("func reset() {\n    state \(junk)= .on\n}\n" + Self.lamp)
            XCTAssertEqual(try a.machine("Sconce.glow").moves.count, 4)
            let error = try XCTUnwrap(a.diagnostics.first { $0.message.hasPrefix("syntax error:") }, "\(a.diagnosticLines)")
            XCTAssertEqual(error.location?.line, 2, "\(a.diagnosticLines)")
        }
        XCTAssertTrue(SourceSet.diagnosticsGeneratorWouldTrap(ParsedFile(path: "t.swift", text: "x \u{1}= y").tree))
        XCTAssertFalse(SourceSet.diagnosticsGeneratorWouldTrap(ParsedFile(path: "t.swift", text: "x = (y").tree))
        // elsewhere swift-syntax's own messages are kept
        let plain = Analysed.source("let x = (1\n" + Self.lamp)
        XCTAssertTrue(plain.diagnostics.contains { $0.message.contains("expected ')'") }, "\(plain.diagnosticLines)")
    }

    func testBacktickedCaseIsOneStateInSwitchesAndTables() throws {
        let a = Analysed.source("""
        enum Preset { case `default`, custom, `switch` }
        enum Choice { case pickDefault, pickCustom, `repeat` }
        final class Chooser {
            var preset: Preset = .custom
            func choose(_ c: Choice) {
                switch (preset, c) {
                case (.custom, .pickDefault): preset = .`default`
                case (.`default`, .pickCustom): preset = .custom
                case (.default, .`repeat`): preset = Preset.`switch`
                case (.`switch`, .repeat): preset = .default
                default: break
                }
            }
        }
        let presetRows: [Harvester<Choice, Preset>.Mapping] = [
            .pickDefault | .custom => .`default`,
            .pickCustom | .default => .custom,
            .`repeat` | .`default` => .`switch`,
        ]
        let presetMachine = Harvester(state: Preset.custom, inputs: input, mapping: .reduce(.first, presetRows))
        """)
        let m = try a.machine("Chooser.preset")
        XCTAssertEqual(m.states, ["default", "custom", "switch"])
        XCTAssertEqual(m.inputs, ["pickDefault", "pickCustom", "repeat"])
        XCTAssertEqual(m.moves, ["custom -pickDefault-> default", "default -pickCustom-> custom",
                                 "default -repeat-> switch", "switch -repeat-> default"])
        XCTAssertFalse(m.findingSet.contains { $0.hasPrefix("unreachable_state") }, "\(m.findingSet)")
        let table = try XCTUnwrap(a.machines.first { $0.dialect == .operatorTable }, "\(a.machines.map(\.name))")
        XCTAssertEqual(table.states, ["default", "custom", "switch"])
        XCTAssertEqual(table.moves, ["custom -pickDefault-> default", "default -pickCustom-> custom", "default -repeat-> switch"])
        XCTAssertFalse(table.findingSet.contains("unreachable_state default"), "\(table.findingSet)")
    }

    func testTernaryOnTheFieldsOwnValueIsAMachine() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer struct Lantern {
            struct State { var beam: Beam = .low }
            enum Beam { case low, high }
            enum Action { case flip, dip }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .flip:
                        state.beam = state.beam == .low ? .high : .low
                        return .none
                    case .dip:
                        return .none
                    }
                }
            }
        }
        """)
        let m = try a.machine("Lantern.beam")
        XCTAssertEqual(m.moves, ["low -flip-> high", "high -flip-> low"])
        XCTAssertEqual(m.initial, "low")
    }

    func testTernaryInASwitchMethodIsAMachine() throws {
        let a = Analysed.source("""
        enum Tide { case ebb, flood }
        enum Moon { case pull, rest }
        final class Harbour {
            var tide: Tide = .ebb
            func on(_ m: Moon) {
                switch m {
                case .pull: tide = tide == .ebb ? .flood : .ebb
                case .rest: break
                }
            }
        }
        """)
        let m = try a.machine("Harbour.tide")
        XCTAssertEqual(m.moves, ["ebb -pull-> flood", "flood -pull-> ebb"])
    }

    func testPathsWithoutSwiftAreSaid() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("docs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt")
        try "enum A { case x }".write(to: notes, atomically: true, encoding: .utf8)
        let set = SourceSet.load(paths: [dir.appendingPathComponent("docs").path, notes.path])
        XCTAssertEqual(set.files.count, 0, "a .txt named explicitly is not parsed as Swift")
        let messages = set.diagnostics.map { "\($0.severity.rawValue): \($0.message)" }
        XCTAssertTrue(messages.contains("warning: no Swift files in \(dir.appendingPathComponent("docs").path)"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("error: \(notes.path) is not a Swift file") }, "\(messages)")
    }

    func testFilesAreReadInPathOrderWhateverTheArgumentOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["b.swift", "a.swift", "c.swift"]
        for n in names { try "let x = 1\n".write(to: dir.appendingPathComponent(n), atomically: true, encoding: .utf8) }
        let forward = SourceSet.load(paths: names.map { dir.appendingPathComponent($0).path }).files.map(\.path)
        let backward = SourceSet.load(paths: names.reversed().map { dir.appendingPathComponent($0).path }).files.map(\.path)
        XCTAssertEqual(forward, backward)
        XCTAssertEqual(forward, forward.sorted())
    }
}
