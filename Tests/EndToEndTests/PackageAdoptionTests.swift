import Foundation
import XCTest

/// machine-viz as a dependency of an app package that already requires an older swift-syntax (600):
/// examples/PluginSample. SwiftPM resolves machine-viz's version range next to the app's, builds
/// machine-viz against swift-syntax 600.0.1 (the lowest supported), and runs both plugins. Builds into `.build-lowest/` at the repository root, which is how CI compiles
/// the lowest versions (.ci/run).
///
/// Slow (a first build compiles swift-syntax): runs only with MACHINE_VIZ_PACKAGE_TESTS=1, which
/// .ci/run sets.
final class PackageAdoptionTests: XCTestCase {
    static let root = CLIEndToEndTests.root
    static let sample = root.appendingPathComponent("examples/PluginSample")
    static let scratch = root.appendingPathComponent(".build-lowest")

    func swift(_ arguments: [String]) throws -> Subprocess {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                           ["swift"] + arguments.prefix(1) + ["--package-path", Self.sample.path, "--scratch-path", Self.scratch.path]
                               + arguments.dropFirst(),
                           in: Self.sample)
    }

    func testSampleWithOlderDependenciesResolvesBuildsAndRunsBothPlugins() throws {
        guard ProcessInfo.processInfo.environment["MACHINE_VIZ_PACKAGE_TESTS"] == "1" else {
            throw XCTSkip("""
                builds examples/PluginSample (swift-syntax 600) with both plugins into .build-lowest, \
                which takes minutes: set MACHINE_VIZ_PACKAGE_TESTS=1 to run it (.ci/run does)
                """)
        }

        // 1. Resolution: machine-viz's range meets the app's older requirement.
        let resolve = try swift(["package", "resolve"])
        if resolve.status != 0, (resolve.stdout + resolve.stderr).contains("no versions of") {
            throw XCTSkip("the package mirror lacks a version the sample requires (swift-syntax 600.x):\n\(resolve.stderr)")
        }
        XCTAssertEqual(resolve.status, 0, resolve.stdout + resolve.stderr)
        let resolved = try String(contentsOf: Self.sample.appendingPathComponent("Package.resolved"), encoding: .utf8)
        let pins = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(resolved.utf8)) as? [String: Any])["pins"] as? [[String: Any]]
        let versions = Dictionary(uniqueKeysWithValues: (pins ?? []).compactMap { pin -> (String, String)? in
            guard let identity = pin["identity"] as? String, let state = pin["state"] as? [String: Any],
                  let version = state["version"] as? String else { return nil }
            return (identity, version)
        })
        XCTAssertTrue(versions["swift-syntax"]?.hasPrefix("600.") == true, "\(versions)")

        // 2. The build-tool plugin: findings as build warnings, with the package's .machine-viz.yml and
        // inline suppressions applied. Its output is removed first so that it runs again on a warm build.
        if let walker = FileManager.default.enumerator(at: Self.scratch, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.lastPathComponent == "MachineVizFindings.swift" {
                try FileManager.default.removeItem(at: url)
            }
        }
        let build = try swift(["build"])
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let log = build.stdout + build.stderr
        XCTAssertTrue(log.contains("Sources/Turnstile/Turnstile.swift:3:53: warning: Turnstile.state: state 'broken'"), log)
        XCTAssertFalse(log.contains("'sealed'"), "terminal in .machine-viz.yml\n\(log)")
        XCTAssertFalse(log.contains("'jammed'"), "suppressed inline\n\(log)")
        XCTAssertFalse(log.contains("LegacyBarrier"), "excluded from the target\n\(log)")

        // 3. The command plugin: the targets' files (not excluded ones, not test targets), the configuration.
        func plugin(_ arguments: [String]) throws -> Subprocess {
            try swift(["package", "--allow-writing-to-package-directory", "machine-viz"] + arguments)
        }
        let lint = try plugin(["lint"])
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
        XCTAssertTrue(lint.stdout.contains("Sources/Turnstile/Turnstile.swift:3:53: warning: Turnstile.state: state 'broken'"), lint.stdout)
        for absent in ["'sealed'", "'jammed'", "LegacyBarrier", "Double", "unused_suppression"] {
            XCTAssertFalse(lint.stdout.contains(absent), "\(absent) in\n\(lint.stdout)")
        }
        let tests = try plugin(["lint", "--target", "TurnstileTests"])
        XCTAssertTrue(tests.stdout.contains("TurnstileDouble.state: state 'frozen'"), "a test target named with --target is read\n\(tests.stdout)")

        // --write-baseline and --baseline take a file, which is not read as Swift.
        let baseline = FileManager.default.temporaryDirectory.appendingPathComponent("mv-sample-baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: baseline) }
        // The tool's stderr comes back as plugin diagnostics (SwiftPM would mix it into its stdout):
        // notes are `info:` lines, shown with --verbose only.
        let write = try swift(["package", "--verbose", "--allow-writing-to-package-directory", "machine-viz", "lint", "--write-baseline", baseline.path])
        XCTAssertEqual(write.status, 0, write.stdout + write.stderr)
        XCTAssertTrue(write.stderr.contains("info: wrote 1 finding to the baseline"), write.stderr)
        XCTAssertFalse(write.stdout.contains("wrote 1 finding"), write.stdout)
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: baseline)) as? [String: Any]
        XCTAssertEqual((written?["findings"] as? [Any])?.count, 1, "\(String(describing: written))")
        let known = try plugin(["lint", "--strict", "--baseline", baseline.path])
        XCTAssertEqual(known.status, 0, "with --strict the warning would fail unless the baseline knows it\n" + known.stdout + known.stderr)
        XCTAssertFalse(known.stdout.contains("'broken'"), known.stdout)

        // stdout is the tool's stdout alone: the document parses
        let analyze = try plugin(["analyze"])
        XCTAssertEqual(analyze.status, 0, analyze.stdout + analyze.stderr)
        let document = try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(document?["schemaVersion"] as? Int, 2, analyze.stdout)

        // `docs` draws the same machines (into a scratch folder here; the sample's docs/machines/ is its output).
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mv-sample-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let docs = try plugin(["docs", "--output-dir", out.path, "--quiet"])
        XCTAssertEqual(docs.status, 0, docs.stdout + docs.stderr)
        let drawn = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".svg") }.sorted()
        XCTAssertEqual(drawn, ["Gate.state.svg", "Turnstile.state.svg"])
    }
}
