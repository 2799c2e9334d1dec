// swift-tools-version: 6.0
import PackageDescription

// swift-syntax 603.0.1 is the parser of Swift 6.3, the toolchain this project builds with: code
// written for the newest language (e.g. `nonisolated(nonsending)`, `@concurrent`, raw identifiers)
// parses without spurious errors. See docs/ARCHITECTURE.md.
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
        .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
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
        .testTarget(name: "GraphvizRenderingTests", dependencies: ["GraphvizRendering", "MachineRendering", "MachineModel"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
        .testTarget(name: "MachineConfigurationTests", dependencies: ["MachineModel", "MachineConfiguration"]),
        .testTarget(name: "LintTests", dependencies: [
            "MachineModel", "MachineAnalysis", "MachineExtraction", "MachineRendering", "MachineConfiguration",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
