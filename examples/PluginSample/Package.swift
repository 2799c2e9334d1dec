// swift-tools-version: 6.0
import PackageDescription

// A small app package that uses machine-viz's plugins from the repository root (by path):
//   swift build                                    # findings appear as build warnings
//   swift package --allow-writing-to-package-directory machine-viz lint
//   swift package --allow-writing-to-package-directory machine-viz docs
//
// Like an app that already depends on TCA or on a macro package, it requires an older swift-syntax
// (600) and Yams 5 itself: machine-viz's version ranges must resolve next to them, and machine-viz
// then builds against swift-syntax 600.0.1 and Yams 5.0.1 (the lowest versions it supports).
// EndToEndTests/PackageAdoptionTests builds this package and runs both plugins on it.
let package = Package(
    name: "PluginSample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "machine-viz", path: "../.."),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"601.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", "5.0.0"..<"6.0.0"),
    ],
    targets: [
        .target(
            name: "Turnstile",
            // Generated code is not part of the target, so machine-viz's command plugin does not read it either.
            exclude: ["Generated"],
            plugins: [.plugin(name: "MachineVizBuildToolPlugin", package: "machine-viz")]
        ),
        // The app's own use of swift-syntax and Yams.
        .target(name: "SampleSupport", dependencies: [
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "Yams", package: "Yams"),
        ]),
        // Test targets are not read by the command plugin unless named with --target.
        .testTarget(name: "TurnstileTests", dependencies: ["Turnstile"]),
    ]
)
