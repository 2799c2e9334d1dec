// swift-tools-version: 6.0
import PackageDescription

// A small app package that uses machine-viz's plugins from the repository root (by path):
//   swift build                                    # findings appear as build warnings
//   swift package --allow-writing-to-package-directory machine-viz lint
//   swift package --allow-writing-to-package-directory machine-viz docs
//
// Like an app that already depends on TCA or on a macro package, it requires an older swift-syntax
// (600) itself: machine-viz's version range must resolve next to it, and machine-viz then builds
// against swift-syntax 600.0.1 (the lowest version it supports).
// EndToEndTests/PackageAdoptionTests builds this package and runs both plugins on it.
let package = Package(
    name: "PluginSample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "machine-viz", path: "../.."),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"601.0.0"),
    ],
    targets: [
        .target(
            name: "Turnstile",
            // Generated code is not part of the target, so machine-viz's command plugin does not read it either.
            exclude: ["Generated"],
            plugins: [.plugin(name: "MachineVizBuildToolPlugin", package: "machine-viz")]
        ),
        // The app's own use of swift-syntax.
        .target(name: "SampleSupport", dependencies: [
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
        ]),
        // Test targets are not read by the command plugin unless named with --target.
        .testTarget(name: "TurnstileTests", dependencies: ["Turnstile"]),
    ]
)
