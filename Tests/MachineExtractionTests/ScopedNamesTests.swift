import Foundation
import MachineModel
import XCTest

/// Names resolve as Swift resolves them: modules (folders or SwiftPM targets), imports, file-private
/// declarations, nested and local types, extensions, typealiases. Machine ids are stable and unique.
final class ScopedNamesTests: XCTestCase {
    /// The `Fixtures/Scoped` folders copied outside this package, so each top folder is a module of
    /// its own (inside the package every fixture belongs to the test target).
    static func scopedFolder(_ folders: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-scoped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let source = Fixture.testsFolder.appendingPathComponent("Fixtures/Scoped")
        for folder in folders {
            try FileManager.default.copyItem(at: source.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        return root
    }

    func analyze(_ folders: [String]) throws -> (machines: [Machine], diagnostics: [Diagnostic]) {
        let root = try Self.scopedFolder(folders)
        defer { try? FileManager.default.removeItem(at: root) }
        return Fixture.analyze([root.path])
    }

    func testTopLevelActionAndStateInTwoModulesAreTwoMachines() throws {
        let (machines, _) = try analyze(["Kiln", "Kettle"])
        XCTAssertEqual(machines.count, 2, "\(machines.map(\.name))")
        let kiln = try XCTUnwrap(machines.first { $0.id == "Kiln/kilnReducer" })
        let kettle = try XCTUnwrap(machines.first { $0.id == "Kettle/kilnReducer" })
        XCTAssertEqual(kiln.states, ["cold", "heating", "glowing"])
        XCTAssertEqual(kiln.inputs, ["ignite", "peak", "cool"])
        XCTAssertEqual(kettle.states, ["empty", "full", "boiling"])
        XCTAssertEqual(kettle.transitions, ["empty -fill-> full", "full -boil-> boiling", "boiling -pour-> empty"])
        // one Swift name, two modules: the display names say which module
        XCTAssertEqual(Set(machines.map(\.name)), ["Kiln/kilnReducer", "Kettle/kilnReducer"])
    }

    func testTypesOfAnotherModuleAreSeenOnlyWhenImported() throws {
        let (machines, diagnostics) = try analyze(["Shared", "Consumer", "Loose"])
        let tower = try XCTUnwrap(machines.first { $0.name == "Tower.beacon" })
        XCTAssertEqual(tower.states, ["dark", "lit", "flashing"])
        XCTAssertEqual(tower.inputs, ["on", "off", "blink"])
        XCTAssertEqual(tower.id, "Consumer/Tower.beacon")
        XCTAssertNil(machines.first { $0.name.hasPrefix("Lantern") }, "Lantern does not import Shared")
        _ = diagnostics
    }

    func testNestedTypeHidesOuterAndExtensionsOfNestedTypesMerge() throws {
        let (machines, _) = try analyze(["Loose"])
        let pump = try XCTUnwrap(machines.first { $0.name == "Pump.stage" })
        XCTAssertEqual(pump.states, ["idle", "priming", "flowing"])
        XCTAssertEqual(pump.inputs, ["prime", "flow", "stop"])
        XCTAssertEqual(pump.initial, "idle")
        XCTAssertEqual(pump.id, "Loose/Pump.stage")
    }

    func testLocalTypeHidesTheFilesType() throws {
        let (machines, _) = try analyze(["Loose"])
        let entrance = try XCTUnwrap(machines.first { $0.name == "Entrance.door" })
        XCTAssertEqual(entrance.states, ["shut", "open"])
        XCTAssertEqual(entrance.transitions, ["shut -push-> open", "open -slam-> shut"])
        XCTAssertFalse(entrance.id.contains(":"), "no line numbers in ids: \(entrance.id)")
    }

    func testGenericTypealiasGivesTheTableItsTypes() throws {
        let (machines, _) = try analyze(["Loose"])
        let basin = try XCTUnwrap(machines.first { $0.name == "basinRows" })
        XCTAssertEqual(basin.states, ["dry", "filling", "full"])
        XCTAssertEqual(basin.inputs, ["open", "close"])
    }

    func testPreviewOfOneFeatureDoesNotSetAnothersInitialState() throws {
        let (machines, _) = try analyze(["Previews"])
        let grinder = try XCTUnwrap(machines.first { $0.name == "Grinder.speed" })
        let mixer = try XCTUnwrap(machines.first { $0.name == "Mixer.speed" })
        XCTAssertEqual(grinder.initial, "off")
        // a preview shows the feature in whatever state it likes; the program starts it at its default
        XCTAssertEqual(mixer.initial, "paused")
        XCTAssertEqual(grinder.id, "Previews/Grinder.State.speed")
    }

    func testEveryInitialIsAStateAndIdsAreUnique() throws {
        let (machines, _) = try analyze(["Kiln", "Kettle", "Shared", "Consumer", "Loose", "Previews"])
        XCTAssertEqual(Set(machines.map(\.id)).count, machines.count, "\(machines.map(\.id))")
        XCTAssertEqual(Set(machines.map(\.name)).count, machines.count, "\(machines.map(\.name))")
        for m in machines {
            if let initial = m.initial { XCTAssertTrue(m.states.contains(initial), "\(m.id): \(initial) ∉ \(m.states)") }
        }
    }

    func testAmbiguousNameIsADiagnosticNotAGuess() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-ambiguous-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "North/Gauge.swift": "public enum Needle { case low, high }\n",
            "South/Gauge.swift": "public enum Needle { case left, right }\n",
            "Panel/Panel.swift": """
                import North
                import South
                enum Tap { case up, down }
                final class Panel {
                    var needle: Needle = .low
                    func handle(_ tap: Tap) {
                        switch (needle, tap) {
                        case (.low, .up): needle = .high
                        default: break
                        }
                    }
                }
                """,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let (machines, diagnostics) = Fixture.analyze([root.path])
        XCTAssertNil(machines.first { $0.name == "Panel.needle" })
        XCTAssertTrue(diagnostics.contains { $0.message.contains("`Needle` is ambiguous") && $0.location?.file.hasSuffix("Panel.swift") == true },
                      "\(diagnostics.map(\.message))")
    }

    func testPackageTargetsAreModules() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let machine = """
            enum Light { case off, on }
            enum Press { case tap }
            struct Lamp {
                var light: Light = .off
                mutating func handle(_ press: Press) {
                    switch (light, press) {
                    case (.off, .tap): light = .on
                    case (.on, .tap): light = .off
                    }
                }
            }
            """
        let files = [
            "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(name: "Lamps", targets: [
                    .target(name: "DeskLamp"),
                    .target(name: "FloorLamp", path: "Custom/Floor"),
                    .testTarget(name: "DeskLampTests", dependencies: ["DeskLamp"]),
                ])
                """,
            "Sources/DeskLamp/Lamp.swift": machine,
            "Custom/Floor/Lamp.swift": machine,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let (machines, _) = Fixture.analyze([root.path])
        XCTAssertEqual(Set(machines.map(\.id)), ["DeskLamp/Lamp.light", "FloorLamp/Lamp.light"])
        XCTAssertEqual(Set(machines.map(\.name)), ["DeskLamp/Lamp.light", "FloorLamp/Lamp.light"])
    }

    func testSameDeclarationTwiceIsOneMachineAndSameNameInOneFileIsNot() throws {
        // two private enums of one name in two files of one module: two machines, ids told apart by file
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-private-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func source(_ a: String, _ b: String) -> String {
            """
            private enum Mood { case \(a), \(b) }
            private enum Nudge { case poke }
            private let moodRows: [Automaton<Nudge, Mood>.Mapping] = [
                .poke | .\(a) => .\(b),
            ]
            """
        }
        for (name, a, b) in [("Calm.swift", "still", "drifting"), ("Storm.swift", "gusty", "raging")] {
            let url = root.appendingPathComponent("Weather/\(name)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source(a, b).write(to: url, atomically: true, encoding: .utf8)
        }
        let (machines, _) = Fixture.analyze([root.path])
        XCTAssertEqual(machines.count, 2)
        XCTAssertEqual(Set(machines.map(\.states)), [["still", "drifting"], ["gusty", "raging"]])
        XCTAssertEqual(Set(machines.map(\.id)), ["Weather/moodRows@Calm.swift", "Weather/moodRows@Storm.swift"])
    }
}

/// Shapes from test suites and generic features: types given by a store's type arguments, file-private
/// `Action`/`State` per file, `@_exported` imports, several machines in one file.
final class ScopedSuiteTests: XCTestCase {
    func testStoreTypeArgumentsAndFilePrivateTypesPerFile() throws {
        let root = try ScopedNamesTests.scopedFolder(["Suites"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (machines, _) = Fixture.analyze([root.path])
        let boil = try XCTUnwrap(machines.first { $0.id == "Suites/KettleTests.test_boil().store" })
        XCTAssertEqual(boil.dialect, .actomaton, "`@_exported import Actomaton` in another file of the module")
        XCTAssertEqual(boil.states, ["cold", "warm", "boiling"])
        XCTAssertEqual(boil.initial, "cold")
        let cool = try XCTUnwrap(machines.first { $0.id == "Suites/KettleTests.test_cool().store" })
        XCTAssertEqual(cool.initial, "boiling")
        let lamp = try XCTUnwrap(machines.first { $0.id == "Suites/LampTests.test_toggle().store" })
        XCTAssertEqual(lamp.states, ["dark", "bright"])
        XCTAssertEqual(lamp.inputs, ["flip"])
        XCTAssertEqual(Set(machines.map(\.name)).count, machines.count)
    }

    func testReducerBodyAnnotationNamesStateAndAction() throws {
        let root = try ScopedNamesTests.scopedFolder(["Suites"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (machines, _) = Fixture.analyze([root.path])
        let pulse = try XCTUnwrap(machines.first { $0.name == "BlenderState.pulse" })
        XCTAssertEqual(pulse.states, ["idle", "chopping"])
        XCTAssertEqual(pulse.inputs, ["press", "release"])
        XCTAssertEqual(pulse.id, "Suites/BlenderState.pulse")
    }
}

/// Shapes from Quick/XCTest specs of the automaton libraries.
final class ScopedSpecTests: XCTestCase {
    func testLocalTypealiasesThroughAModuleQualifiedGenericType() throws {
        let root = try ScopedNamesTests.scopedFolder(["Relay"])
        defer { try? FileManager.default.removeItem(at: root) }
        // given `Relay/`: its top folders `Lib` and `Specs` are modules
        let (machines, _) = Fixture.analyze([root.appendingPathComponent("Relay").path])
        let relay = try XCTUnwrap(machines.first { $0.id == "Specs/RelaySpec.spec().relay" }, "\(machines.map(\.id))")
        XCTAssertEqual(relay.states, ["open", "closing", "closed", "welded"], "all of Coil's cases: the type is known")
        XCTAssertEqual(relay.inputs, ["energize", "settle", "release"])
        XCTAssertEqual(relay.initial, "open")
        XCTAssertEqual(relay.name, "relay", "assigned in a closure: named by what it is stored in")
    }

    func testRoutesOnAConfigureClosureParameter() throws {
        let root = try ScopedNamesTests.scopedFolder(["Relay"])
        defer { try? FileManager.default.removeItem(at: root) }
        // given `Relay/`: its top folders `Lib` and `Specs` are modules
        let (machines, _) = Fixture.analyze([root.appendingPathComponent("Relay").path])
        let gearbox = try XCTUnwrap(machines.first { $0.name == "gearbox" }, "\(machines.map(\.name))")
        XCTAssertEqual(gearbox.states, ["low", "high", "neutral"])
        XCTAssertEqual(gearbox.transitions, ["low -up-> high", "high -down-> low"])
        XCTAssertEqual(gearbox.id, "Specs/GearboxTests.testShift().gearbox")
    }
}
