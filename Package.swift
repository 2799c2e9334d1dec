// swift-tools-version: 6.0
import PackageDescription

// Dependencies are ranges, not exact pins, so that machine-viz resolves next to the versions an app
// already uses (TCA and other macro packages bring their own swift-syntax range). The newest
// swift-syntax (603, the parser of Swift 6.3) is what a plain `swift build` resolves and what parses
// the newest syntax (`nonisolated(nonsending)`, raw identifiers) without spurious errors; CI also
// compiles against the lowest swift-syntax (600.0.1) through examples/PluginSample. Yams 5 lacks
// APIs the configuration reader uses (`Node.alias`, the Sendable `YamlError.duplicatedKeysInMapping`
// of 6.0), hence 6.0.0. See docs/architecture.md.
let package = Package(
    name: "machine-viz",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "machine-viz", targets: ["machine-viz"]),
        .library(name: "MachineViz", targets: [
            "MachineModel", "MachineAnalysis", "MachineExtraction", "MachineRendering", "GraphvizRendering",
        ]),
        // `swift package machine-viz docs|lint …` and findings as build warnings (see docs/docs-pipeline.md).
        .plugin(name: "MachineVizCommandPlugin", targets: ["MachineVizCommandPlugin"]),
        .plugin(name: "MachineVizBuildToolPlugin", targets: ["MachineVizBuildToolPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.1"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", "1.5.0"..<"2.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", "6.0.0"..<"7.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "MachineModel"),
        .target(name: "MachineAnalysis", dependencies: ["MachineModel"]),
        .target(name: "MachineExtraction", dependencies: [
            "MachineModel",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
            .product(name: "SwiftOperators", package: "swift-syntax"),
        ]),
        .target(name: "MachineRendering", dependencies: ["MachineModel", "MachineAnalysis"]),
        .target(name: "GraphvizRendering", dependencies: ["CGraphviz"]),
        .target(name: "MachineConfiguration", dependencies: ["MachineModel", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "machine-viz", dependencies: [
            "MachineModel", "MachineAnalysis", "MachineExtraction", "MachineRendering", "GraphvizRendering",
            "MachineConfiguration",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Yams", package: "Yams"),
        ]),
        .executableTarget(name: "machine-viz-bench", dependencies: [
            "MachineModel", "MachineAnalysis", "MachineExtraction", "MachineRendering", "GraphvizRendering",
            .product(name: "SwiftParser", package: "swift-syntax"),
        ]),
        .plugin(
            name: "MachineVizCommandPlugin",
            capability: .command(
                intent: .custom(verb: "machine-viz", description: "Run machine-viz (docs, lint, analyze, list, render) on this package"),
                permissions: [.writeToPackageDirectory(reason: "machine-viz docs writes diagrams and pages into the package")]),
            dependencies: ["machine-viz"]
        ),
        .plugin(name: "MachineVizBuildToolPlugin", capability: .buildTool(), dependencies: ["machine-viz"]),
        .testTarget(name: "MachineModelTests", dependencies: ["MachineModel"]),
        .testTarget(name: "MachineAnalysisTests", dependencies: ["MachineModel", "MachineAnalysis"]),
        .testTarget(name: "MachineExtractionTests", dependencies: ["MachineModel", "MachineExtraction", "MachineAnalysis"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "MachineRenderingTests", dependencies: [
            "MachineModel", "MachineAnalysis", "MachineRendering", "MachineExtraction",
            // the XCTest skeletons of `paths --format xctest` are parsed to prove they are valid Swift
            .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax"),
        ], exclude: ["Golden"]),
        .testTarget(name: "GraphvizRenderingTests", dependencies: [
            "GraphvizRendering", "MachineRendering", "MachineModel",
            // FuzzRegressionTests runs Fuzz/Regressions/ through extraction and analysis, as the fuzz target does
            "MachineExtraction", "MachineAnalysis",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: []),
        .testTarget(name: "MachineConfigurationTests", dependencies: ["MachineModel", "MachineConfiguration"]),
        .testTarget(name: "LintTests", dependencies: [
            "MachineModel", "MachineAnalysis", "MachineExtraction", "MachineRendering", "MachineConfiguration",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
